import Foundation
import Testing
@testable import GraphStore

/// `StoreValidator` over every corpus store that has a model file paired with it in the
/// manifest: each run completes, leaves the files untouched, and finds what is known to be
/// there.
@Suite struct CorpusValidationTests {
    /// Findings per store and model (paths relative to the corpus); a pair not listed has none.
    static let known: [String: [String]] = {
        // "Pro iOS Persistence" seeds its BookStore with books cheaper than the minimum price
        // (15) that the Objective-C model sets from chapter 4 on; the Swift models and
        // chapter 2's have no minimum.
        let seed = "stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite"
        let cheap = [
            "1620 Book/p76: price 10 is below the minimum 15",
            "1620 Book/p78: price 10 is below the minimum 15",
            "1620 Book/p79: price 12 is below the minimum 15",
        ]
        var known = [
            "\(seed) with models/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/BookStore.xcdatamodeld/BookStore.xcdatamodel": cheap,
            "\(seed) with models/Apress__pro-ios-persistence/Ch06/BookStore/BookStore/BookStore.xcdatamodeld/BookStore.xcdatamodel": cheap,
        ]
        // wire's test stores keep a user's medium image in external storage, but the
        // corpus holds the stores without their `.<name>_SUPPORT/_EXTERNAL_DATA` folders.
        let wire = "wireapp__wire-ios-data-model"
        for (store, model, file) in [
            ("store1-25", "zmessaging", "D9B36DBE-1137-4623-9B8A-42FD754F69EA"),
            ("store2-21-1", "zmessaging2.21.1", "30084A1C-76CF-4976-8312-8E8EFCF6F510"),
            ("store2-30-0", "zmessaging2.30.0", "30084A1C-76CF-4976-8312-8E8EFCF6F510"),
            ("store2-45-0", "zmessaging2.45.0", "30084A1C-76CF-4976-8312-8E8EFCF6F510"),
            ("store2-60-0", "zmessaging2.60.0", "30084A1C-76CF-4976-8312-8E8EFCF6F510"),
        ] {
            known["stores/\(wire)/Tests/Resources/\(store).wiredatabase with models/\(wire)/Resources/zmessaging.xcdatamodeld/\(model).xcdatamodel"] = [
                "1550 User/p1: imageMediumData cannot be read as Binary: the store holds a reference to external data file "
                    + "$CORPUS/stores/\(wire)/Tests/Resources/.\(store)_SUPPORT/_EXTERNAL_DATA/\(file), which is missing"
            ]
        }
        return known
    }()

    @Test func everyPairedCorpusStoreValidates() throws {
        guard let corpus = try Fixtures.requireCorpus("CorpusValidationTests") else { return }
        let pairs = ModelIOCorpus.pairs(in: corpus)
        #expect(pairs.count >= 25)
        // Messages name files by their real path (symbolic links followed, as a store's
        // support folder is found beside its real file), so both spellings stand for $CORPUS.
        let realCorpus = corpus.resolvingSymlinksInPath().path
        var checked = 0
        for (storePath, models) in pairs.sorted(by: { $0.key < $1.key }) {
            let relative = ModelIOCorpus.relative(storePath, to: corpus)
            for modelPath in models.sorted() {
                let model = try ModelFile.load(path: modelPath, version: nil)
                let bytes = Fixtures.fingerprint(storePath)
                let store = try PersistentStore(path: storePath, model: model, origin: .file(modelPath))
                var found: [String] = []
                let summary = try StoreValidator(store: store).validate {
                    found.append(
                        "\($0.code.rawValue) \($0)".replacingOccurrences(of: realCorpus, with: "$CORPUS").replacingOccurrences(of: corpus.path, with: "$CORPUS"))
                }
                let pair = "\(relative) with \(ModelIOCorpus.relative(modelPath, to: corpus))"
                #expect(found == Self.known[pair] ?? [], "\(pair)")
                #expect(Fixtures.fingerprint(storePath) == bytes, "\(relative) changed")
                print("validated \(pair): \(summary.objectsChecked) objects, \(summary.failures) failures")
                checked += summary.objectsChecked
            }
        }
        #expect(checked > 20_000)
    }
}
