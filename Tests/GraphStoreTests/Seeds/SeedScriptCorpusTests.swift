import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// Seed update scripts between real stores: applied to the old store, a script leaves
/// nothing for `diff` to report, or no script is written and the refusal names why. Keys are
/// the model's uniqueness constraints, else what ``KeyPicker`` picks (printed).
@Suite(.serialized) struct SeedScriptCorpusTests {
    /// A corpus store and the model version Core Data wrote it with (MANIFEST.tsv's match).
    struct CorpusStore {
        var path: String
        var model: String
        var bundle: String { (model as NSString).deletingLastPathComponent }
        var name: String { (path as NSString).lastPathComponent }
    }

    /// Every Core Data store of the corpus with its matching model.
    static func stores(_ corpus: URL) throws -> [CorpusStore] {
        let manifest = try String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "model: MATCH[^|]*?(models/.*?\\.xcdatamodel)(?=[ \\t\"]|$)")
        var found: [CorpusStore] = []
        for line in manifest.split(whereSeparator: \.isNewline).map(String.init) {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 6, columns[4] == "store" else { continue }
            let notes = columns[6] as NSString
            guard let match = pattern.firstMatch(in: columns[6], range: NSRange(location: 0, length: notes.length)) else { continue }
            found.append(CorpusStore(path: corpus.appendingPathComponent(columns[0]).path, model: corpus.appendingPathComponent(notes.substring(with: match.range(at: 1))).path))
        }
        return found
    }

    /// What one comparison found: whether the script was written and undid every
    /// difference, or was refused (and why), or could not be saved.
    struct Result {
        var changes: Int
        var refusal: ScriptRefusal?
        var applied: Bool
    }

    /// A copy of a store with its log and its external data files.
    static func copy(_ path: String) throws -> String {
        let target = try BrokenStores.copy(path)
        try StoreSupportFolder(storePath: path).copy(besideStoreAt: target)
        return target
    }

    /// Diffs `old` against `new`, writes the script and applies it to a copy of `old`, then
    /// diffs again: nothing may differ, and a second run changes no byte. A refusal must say
    /// why; a script whose objects fail validation (a store saved with invalid objects) is
    /// not saved, and says so.
    @discardableResult
    static func roundTrip(old: String, new: String, model: ManagedObjectModel, label: String) throws -> Result {
        let target = try Self.copy(old)
        let newStore = try PersistentStore(path: try Self.copy(new), model: model)
        let oldStore = try PersistentStore(path: target, model: model, readOnly: false)
        let (keys, notes, unkeyed) = try KeyPicker.pick([ManagedObjectContext(store: oldStore), ManagedObjectContext(store: newStore)], model: model)
        let diff = try StoreDiff(old: ManagedObjectContext(store: oldStore), new: ManagedObjectContext(store: newStore), keys: keys)
        print("\(label): \(diff.changes.count) objects differ; \(notes.joined(separator: "; "))")
        let script: String
        do {
            script = try diff.verifiedUpdateScript(header: label, old: ManagedObjectContext(store: oldStore), new: ManagedObjectContext(store: newStore))
        } catch let refusal as ScriptRefusal {
            // Refused rather than written lossy: an entity no key fits, or values whose text
            // does not read back as the same value.
            print("\(label): refused (no key fits: \(unkeyed.sorted())): \(refusal)")
            #expect(!refusal.problems.isEmpty && refusal.problems.allSatisfy { !$0.reason.isEmpty })
            return Result(changes: diff.changes.count, refusal: refusal, applied: false)
        }
        do {
            _ = try SeedUpdate(text: script).apply(to: ManagedObjectContext(store: oldStore))
        } catch let failure as any ValidationErrorReporting {
            print("\(label): not saved: the new store's own objects fail validation: \(failure)")
            return Result(changes: diff.changes.count, refusal: nil, applied: false)
        }
        let applied = try PersistentStore(path: target, model: model)
        let after = try StoreDiff(old: ManagedObjectContext(store: applied), new: ManagedObjectContext(store: newStore), keys: keys)
        #expect(after.changes.isEmpty, "\(label): still differs: \(after.changes.prefix(3).map { "\($0.kind) \($0.entity) \($0.key) \($0.properties.map(\.name))" })")
        let bytes = BrokenStores.bytes(of: target)
        let second = try SeedUpdate(text: script).apply(to: ManagedObjectContext(store: try PersistentStore(path: target, model: model, readOnly: false)))
        #expect(!second.changedAnything, "\(label): \(second)")
        // The store's data is its file and its log; the -shm is the connections' shared index,
        // which any reader of a WAL store updates.
        let data = { (files: [String: Data]) in files.filter { $0.key != "-shm" } }
        #expect(data(BrokenStores.bytes(of: target)) == data(bytes), "\(label): a second run that changed nothing wrote to the store")
        return Result(changes: diff.changes.count, refusal: nil, applied: true)
    }

    /// Runs `body`; a store whose external data files the corpus does not carry (the Wire
    /// stores name users' images kept beside them) cannot be read whole, and is said and left.
    static func unlessExternalDataIsMissing(_ label: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch where "\(error)".contains("is kept in external data file") && "\(error)".hasSuffix("which is missing") {
            print("\(label): not compared: \(error)")
        }
    }

    @Test func everyStoreIsBuiltFromAnEmptyStoreAndEmptiedAgainByItsScripts() throws {
        guard let corpus = try Fixtures.requireCorpus("everyStoreIsBuiltFromAnEmptyStoreAndEmptiedAgainByItsScripts") else { return }
        let stores = try Self.stores(corpus)
        #expect(stores.count >= 20)
        var written = 0
        for store in stores {
            let model = try ModelFile.load(path: store.model, version: nil)
            let empty = try Fixtures.newStorePath()
            _ = try PersistentStore.create(at: empty, model: model)
            try Self.unlessExternalDataIsMissing(store.name) {
                let filled = try Self.roundTrip(old: empty, new: store.path, model: model, label: "empty → \(store.name)")
                let emptied = try Self.roundTrip(old: store.path, new: empty, model: model, label: "\(store.name) → empty")
                if filled.applied, emptied.applied { written += 1 }
            }
        }
        print("\(written) of \(stores.count) stores built from empty and emptied by their scripts")
        #expect(written >= 5, "\(written) of \(stores.count)")
    }

    /// Each app's stores written with different versions of its model, in migration order:
    /// the older is migrated to the newer's version, then each is turned into the other.
    @Test func eachAppsStoresAreTurnedIntoOneAnother() throws {
        guard let corpus = try Fixtures.requireCorpus("eachAppsStoresAreTurnedIntoOneAnother") else { return }
        var compared = 0
        for (bundle, stores) in Dictionary(grouping: try Self.stores(corpus), by: \.bundle) where stores.count > 1 {
            let manager = try MigrationManager(bundle: bundle)
            // Older first: the more steps to the current version, the older.
            let ordered = try stores.map { ($0, try manager.plan(forStoreAt: $0.path).steps.count) }.sorted { $0.1 > $1.1 }.map(\.0)
            for (older, newer) in zip(ordered, ordered.dropFirst()) {
                let label = "\(older.name) → \(newer.name)"
                let version = ((newer.model as NSString).lastPathComponent as NSString).deletingPathExtension
                let migrated = try Self.copy(older.path)
                do {
                    try manager.migrate(storeAt: migrated, to: version)
                } catch {
                    print("\(label): not compared: the older store does not migrate to \(version): \(error)")
                    continue
                }
                let model = try ModelFile.load(path: newer.model, version: nil)
                try Self.unlessExternalDataIsMissing(label) {
                    try Self.roundTrip(old: migrated, new: newer.path, model: model, label: label)
                    try Self.roundTrip(old: newer.path, new: migrated, model: model, label: "\(newer.name) → \(older.name) (migrated)")
                    compared += 1
                }
            }
        }
        print("\(compared) pairs compared")
        #expect(compared >= 3)
    }
}
