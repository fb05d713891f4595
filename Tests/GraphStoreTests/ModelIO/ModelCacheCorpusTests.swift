import Foundation
import Testing
@testable import GraphStore

extension ModelIOTests {
    /// Every corpus store's `Z_MODELCACHE`: it decodes, it agrees with the Xcode model the
    /// manifest pairs the store with, and opening the store with it changes no byte.
    @Suite struct ModelCacheCorpusTests {
        /// Disagreements between a store's cache and its paired model that are real: the store
        /// was written by an earlier revision of the model than the one in the repository.
        /// alhoqbani's Recipes store came from Apple's original iPhoneCoreDataRecipes model, in
        /// which these three properties are required (the original Xcode 3 model in the corpus,
        /// ducky007__NSConferenceiPhoneCoreDataRecipes/Recipes.xcdatamodel, says so too); the
        /// repository's later `contents` marks them optional. Optionality does not change the
        /// schema, which is why the store still matches the model's tables.
        static let knownDisagreements: [String: Set<String>] = [
            "stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite": [
                "Image.recipe.optional: cache false, xml true",
                "Ingredient.displayOrder.optional: cache false, xml true",
                "Ingredient.name.optional: cache false, xml true",
            ]
        ]

        private func cache(of store: String) throws -> ModelCache? {
            let opened = try PersistentStore(path: store)
            guard opened.schema.table("Z_MODELCACHE") != nil else { return nil }
            return try opened.decodedModelCache()
        }

        @Test func everyModelCacheDecodes() throws {
            guard let corpus = try Fixtures.requireCorpus("everyModelCacheDecodes") else { return }
            var decoded = 0
            var without: [String] = []
            for store in ModelIOCorpus.stores(in: corpus) {
                let name = ModelIOCorpus.relative(store, to: corpus)
                do {
                    guard let cache = try cache(of: store) else {
                        without.append(name)
                        continue
                    }
                    decoded += 1
                    #expect(!cache.model.entities.isEmpty, "\(name): no entities")
                    #expect(cache.warnings.isEmpty, "\(name): \(cache.warnings)")
                    // Every entity the store records has Apple's version hash in the metadata.
                    let store = try PersistentStore(path: store)
                    let hashes = try store.decodedModelCache().model.knownVersionHashes
                    #expect(Set(hashes.keys) == Set(cache.model.entities.map(\.name)), "\(name): version hashes do not cover the entities")
                } catch {
                    Issue.record("\(name): \(error)")
                }
            }
            print("model caches: \(decoded) decoded; \(without.count) stores have none: \(without.joined(separator: ", "))")
            #expect(decoded > 0)
        }

        @Test func cachesAgreeWithTheirXcodeModels() throws {
            guard let corpus = try Fixtures.requireCorpus("cachesAgreeWithTheirXcodeModels") else { return }
            var compared = 0
            for (store, models) in ModelIOCorpus.pairs(in: corpus).sorted(by: { $0.key < $1.key }) {
                let name = ModelIOCorpus.relative(store, to: corpus)
                guard let cache = try cache(of: store) else { continue }
                // A store paired with several schema-identical versions must agree with one.
                var outcomes: [(model: String, differences: [String])] = []
                for model in models.sorted() {
                    let file = try ModelFile(path: model)
                    outcomes.append((ModelIOCorpus.relative(model, to: corpus), ModelComparison.differences(cache.model, file.model)))
                }
                let expected = Self.knownDisagreements[name] ?? []
                let best = outcomes.min { $0.differences.count < $1.differences.count }
                guard let best else { continue }
                compared += 1
                #expect(Set(best.differences) == expected, "\(name) vs \(best.model):\n  \(best.differences.joined(separator: "\n  "))")
                let entities = cache.model.entities.count
                let properties = cache.model.entities.reduce(0) { $0 + $1.attributes.count + $1.relationships.count }
                print("\(name) ⇄ \(best.model): \(entities) entities, \(properties) properties compared, \(best.differences.count) known differences")
            }
            print("cache/XML pairs compared: \(compared)")
            #expect(compared > 0)
        }

        /// Every corpus model, archived the way Core Data archives it and decoded again,
        /// comes back the same on every entity, attribute and relationship.
        @Test func everyXcodeModelRoundTripsThroughAnArchive() throws {
            guard let corpus = try Fixtures.requireCorpus("everyXcodeModelRoundTripsThroughAnArchive") else { return }
            var count = 0
            for path in ModelIOCorpus.modelFiles(named: "contents", in: corpus) {
                let name = ModelIOCorpus.relative(path, to: corpus)
                guard let model = try? ModelFile(path: path).model else { continue }
                let decoded = try ModelCache(compressed: ModelArchiveEncoder.compressed(model))
                let differences = ModelComparison.differences(decoded.model, model, names: ("decoded", "xml"))
                #expect(differences.isEmpty, "\(name):\n  \(differences.joined(separator: "\n  "))")
                #expect(decoded.model.entities.map { $0.uniquenessConstraints } == model.entities.map { $0.uniquenessConstraints }, "\(name)")
                // The cache decoder reads every input of the version hashes the XML reader reads.
                #expect(decoded.model.computedVersionHashes == model.computedVersionHashes, "\(name): version hashes")
                count += 1
            }
            print("models round-tripped through an archive: \(count)")
        }

        /// The evidence behind ``knownDisagreements``: Apple's original Recipes model (an
        /// Xcode 3 model in the corpus) agrees with the Recipes store's cache on every entity
        /// the two share, optionality included.
        @Test func recipesCacheMatchesApplesOriginalModel() throws {
            guard let corpus = try Fixtures.requireCorpus("recipesCacheMatchesApplesOriginalModel") else { return }
            let store = corpus.appendingPathComponent("stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite").path
            let original = corpus.appendingPathComponent("models/ducky007__NSConferenceiPhoneCoreDataRecipes/Recipes.xcdatamodel").path
            guard FileManager.default.fileExists(atPath: store), FileManager.default.fileExists(atPath: original) else { return }
            let cached = try #require(try cache(of: store)).model
            let legacy = try ModelFile(path: original).model
            let shared = Set(cached.entities.map(\.name)).intersection(legacy.entities.map(\.name))
            #expect(shared == ["Image", "Ingredient", "Recipe", "RecipeType"])
            let differences = ModelComparison.differences(cached, legacy, names: ("cache", "legacy"))
                .filter { line in shared.contains { line.hasPrefix($0 + ".") } }
            #expect(differences.isEmpty, "\(differences)")
        }

        @Test func openingWithTheCacheChangesNoByte() throws {
            guard let corpus = try Fixtures.requireCorpus("openingWithTheCacheChangesNoByte") else { return }
            var opened = 0
            for path in ModelIOCorpus.stores(in: corpus) {
                let name = ModelIOCorpus.relative(path, to: corpus)
                let before = Fixtures.fingerprint(path)
                do {
                    let store = try PersistentStore(path: path)
                    let hasCache = store.schema.table("Z_MODELCACHE") != nil
                    if hasCache {
                        #expect(store.modelOrigin == .modelCache, "\(name): opened with \(store.modelOrigin) (\(notes(store.modelOrigin)))")
                        for entity in store.model.entities {
                            _ = try store.count(of: store.mapping(for: entity.name))
                        }
                    }
                    opened += 1
                } catch {
                    Issue.record("\(name): \(error)")
                }
                #expect(Fixtures.fingerprint(path) == before, "\(name): a byte of the store, -wal or -shm changed")
            }
            print("stores opened without a model: \(opened)")
        }

        private func notes(_ origin: ModelOrigin) -> String {
            if case .inferred(let notes) = origin { return notes.prefix(2).joined(separator: "; ") }
            return ""
        }
    }

    /// Every store the manifest pairs with an Xcode model opens with that model file.
    @Suite struct PairedStoreOpeningTests {
        @Test func everyPairedStoreOpensWithItsModelFile() throws {
            guard let corpus = try Fixtures.requireCorpus("everyPairedStoreOpensWithItsModelFile") else { return }
            var opened = 0
            for (store, models) in ModelIOCorpus.pairs(in: corpus).sorted(by: { $0.key < $1.key }) {
                let name = ModelIOCorpus.relative(store, to: corpus)
                let before = Fixtures.fingerprint(store)
                var failures: [String] = []
                for model in models.sorted() {
                    do {
                        let opened = try PersistentStore(path: store, modelPath: model)
                        #expect(opened.modelOrigin == .file(model))
                        failures = []
                        break
                    } catch {
                        failures.append("\(ModelIOCorpus.relative(model, to: corpus)): \(error)")
                    }
                }
                #expect(failures.isEmpty, "\(name) does not open with its paired model:\n\(failures.joined(separator: "\n"))")
                if failures.isEmpty { opened += 1 }
                #expect(Fixtures.fingerprint(store) == before, "\(name): a byte changed")
            }
            print("stores opened with their paired model file: \(opened)")
        }

        /// The Xcode 3 model of CoreDataBooks reads the framework-230 store it shipped with.
        @Test func legacyModelOpensItsStore() throws {
            guard let corpus = try Fixtures.requireCorpus("legacyModelOpensItsStore") else { return }
            let store = corpus.appendingPathComponent("stores/thoughtcroft__coredatabooks/CoreDataBooks.CDBStore").path
            let model = corpus.appendingPathComponent("models/thoughtcroft__coredatabooks/CoreDataBooks.xcdatamodeld").path
            guard FileManager.default.fileExists(atPath: store), FileManager.default.fileExists(atPath: model) else { return }
            let file = try ModelFile(path: model)
            #expect(file.format == .legacyArchive)
            let book = try #require(file.model.entity(named: "Book"))
            #expect(book.attributes.map(\.name) == ["author", "copyright", "title"])
            #expect(book.attribute(named: "copyright")?.type == .date)
            #expect(book.attribute(named: "title")?.defaultValue == "Title")
            #expect(book.attribute(named: "title")?.minLength == 1)
            let opened = try PersistentStore(path: store, modelPath: model)
            #expect(try opened.count(of: opened.mapping(for: "Book")) > 0)
        }
    }
}
