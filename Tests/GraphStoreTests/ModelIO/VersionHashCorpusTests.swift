import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

extension ModelIOTests {
    /// Every ground truth for version hashes in the corpus: the `NSStoreModelVersionHashes`
    /// Core Data wrote into a store equal the hashes GraphStore computes for the model that
    /// wrote it, read from the store's own `Z_MODELCACHE` and from the model file the
    /// manifest pairs with the store.
    @Suite struct VersionHashCorpusTests {
        /// Manifest pairings that are not the model that wrote the store. The repository's
        /// Recipes model was edited after the store was made: its attributes became optional
        /// and its to-ones lost `minCount="1"` (the store's own cache, and Apple's original
        /// sample model, still have them), so only one of four hashes can agree.
        static let notThePairedModel: [String: String] = [
            "stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite":
                "models/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld/Recipes.xcdatamodel"
        ]

        /// Counts of compared entity hashes and derived keys.
        private struct Tally {
            var pairs = 0
            var equal = 0
            var digests = (checked: 0, equal: 0)
            var checksums = (checked: 0, equal: 0)
            var frameworks: Set<Int> = []

            /// Compares a model's computed hashes with a store's metadata, entity by entity.
            mutating func compare(_ model: ManagedObjectModel, with metadata: StoreMetadata, _ label: String) {
                let expected = metadata.versionHashes
                let computed = model.computedVersionHashes
                let wrong = expected.keys.filter { computed[$0] != expected[$0] }.sorted()
                pairs += expected.count
                equal += expected.count - wrong.count
                frameworks.formUnion(metadata.frameworkVersion.map { [$0] } ?? [])
                #expect(wrong.isEmpty, "\(label): hashes differ for \(wrong.joined(separator: ", "))")
                #expect(Set(computed.keys) == Set(expected.keys), "\(label): the model's entities are not the store's")
                let unverified = VersionHashCoverage.reasons(for: model)
                #expect(unverified.isEmpty, "\(label): a confirmed hash is marked unverified: \(unverified)")
                if let digest = metadata.properties["NSStoreModelVersionHashesDigest"] as? String {
                    digests.checked += 1
                    let ours = ManagedObjectModel.versionHashesDigest(computed)
                    if ours == digest { digests.equal += 1 }
                    #expect(ours == digest, "\(label): NSStoreModelVersionHashesDigest")
                }
                if let checksum = metadata.properties["NSStoreModelVersionChecksumKey"] as? String {
                    checksums.checked += 1
                    let ours = ManagedObjectModel.versionChecksum(computed)
                    if ours == checksum { checksums.equal += 1 }
                    #expect(ours == checksum, "\(label): NSStoreModelVersionChecksumKey")
                }
            }

            var summary: String {
                "\(pairs) pairs, \(equal) equal (frameworks \(frameworks.sorted().map(String.init).joined(separator: ", "))); "
                    + "digest \(digests.equal)/\(digests.checked), checksum \(checksums.equal)/\(checksums.checked)"
            }
        }

        @Test func modelCachesReproduceTheirStoresHashes() throws {
            guard let corpus = try Fixtures.requireCorpus("modelCachesReproduceTheirStoresHashes") else { return }
            var tally = Tally()
            var stores = 0
            for path in ModelIOCorpus.stores(in: corpus) {
                let name = ModelIOCorpus.relative(path, to: corpus)
                let store = try PersistentStore(path: path)
                guard store.schema.table("Z_MODELCACHE") != nil, !store.metadata.versionHashes.isEmpty else { continue }
                // The decoded cache carries the metadata's hashes as known ones; compare the
                // computed ones, which ignore them.
                tally.compare(try store.decodedModelCache().model, with: store.metadata, name)
                stores += 1
            }
            print("version hashes (Z_MODELCACHE, \(stores) stores): \(tally.summary)")
            #expect(stores > 0 && tally.pairs > 0)
        }

        @Test func pairedModelFilesReproduceTheirStoresHashes() throws {
            guard let corpus = try Fixtures.requireCorpus("pairedModelFilesReproduceTheirStoresHashes") else { return }
            var tally = Tally()
            var files = 0
            for (store, models) in ModelIOCorpus.manifestModels(in: corpus) {
                let metadata = try PersistentStore(path: corpus.appendingPathComponent(store).path).metadata
                guard !metadata.versionHashes.isEmpty else { continue }
                for model in models {
                    let file = try ModelFile(path: corpus.appendingPathComponent(model).path)
                    if Self.notThePairedModel[store] == model {
                        // Keep the exclusion honest: the edited model really does disagree.
                        let computed = file.model.computedVersionHashes
                        let equal = metadata.versionHashes.filter { computed[$0.key] == $0.value }.count
                        #expect(equal < metadata.versionHashes.count, "\(store) now agrees with \(model): drop the exclusion")
                        print("version hashes: excluded \(store) ⇄ \(model) (\(equal)/\(metadata.versionHashes.count) equal): the model was edited after the store was made")
                        continue
                    }
                    tally.compare(file.model, with: metadata, "\(store) ⇄ \(model)")
                    files += 1
                }
            }
            print("version hashes (model files, \(files) store/model pairs): \(tally.summary)")
            #expect(files > 0 && tally.pairs > 0)
        }
    }
}

extension ModelIOCorpus {
    /// Store → the model folders `MANIFEST.tsv` names for it, as the version-hash research
    /// reads them: store rows whose notes say `model: MATCH [(…)] <folder> [OR <folder>…]`
    /// or `model: legacy-format candidate(s) with same entity names <folder>`. Paths are
    /// relative to the corpus; only pairs whose files exist are listed.
    static func manifestModels(in corpus: URL) -> [(store: String, models: [String])] {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        var result: [(store: String, models: [String])] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 7, columns[4] == "store", !columns[0].hasSuffix("-wal"), !columns[0].hasSuffix("-shm") else { continue }
            let notes = columns[6]
            var rest: Substring
            if let range = notes.range(of: "model: MATCH ") {
                rest = notes[range.upperBound...]
            } else if let range = notes.range(of: "model: legacy-format candidate(s) with same entity names ") {
                rest = notes[range.upperBound...]
            } else {
                continue
            }
            if rest.hasPrefix("(") { rest = rest.drop { $0 != ")" }.dropFirst().drop { $0 == " " } }
            // The list ends at the first note in parentheses or at the next " | " field.
            for terminator in [" (", " |"] {
                if let end = rest.range(of: terminator) { rest = rest[..<end.lowerBound] }
            }
            let models = rest.components(separatedBy: " OR ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && FileManager.default.fileExists(atPath: corpus.appendingPathComponent($0).path) }
            if !models.isEmpty, FileManager.default.fileExists(atPath: corpus.appendingPathComponent(columns[0]).path) {
                result.append((columns[0], models))
            }
        }
        return result.sorted { $0.store < $1.store }
    }
}
