import Foundation
import Testing
@testable import GraphStore

extension ModelIOTests {
    /// Every model file of the corpus: read, or rejected for a deliberate, named reason.
    @Suite struct ModelFileCorpusTests {
        /// A rejection is deliberate when it is one of the cases that name what is wrong with
        /// the model itself (not an I/O failure or an unexpected crash-like condition).
        private func isDeliberate(_ error: ModelFileError) -> Bool {
            switch error {
            case .invalidModel, .malformed, .notAModel, .legacyFormat: true
            case .fileNotFound, .unreadable, .noCurrentVersion, .unknownVersion: false
            }
        }

        @Test func everyContentsModelParses() throws {
            guard let corpus = try Fixtures.requireCorpus("everyContentsModelParses") else { return }
            let files = ModelIOCorpus.modelFiles(named: "contents", in: corpus)
            #expect(!files.isEmpty)
            var parsed = 0
            var entities = 0
            var rejected: [String] = []
            var warnings: [String] = []
            for file in files {
                let name = ModelIOCorpus.relative(file, to: corpus)
                do {
                    let model = try ModelFile(path: file)
                    parsed += 1
                    entities += model.model.entities.count
                    #expect(model.format == .xml)
                    warnings += model.warnings.map { "\(name): \($0)" }
                } catch {
                    rejected.append("\(name): \(error)")
                    #expect(isDeliberate(error), "\(name) was rejected for a reason that is not about the model: \(error)")
                }
            }
            print("contents models: \(parsed) parsed (\(entities) entities), \(rejected.count) rejected, \(warnings.count) warnings")
            for line in rejected + warnings { print("  \(line)") }
            #expect(parsed + rejected.count == files.count)
        }

        @Test func everyLegacyModelIsReadOrRejectedAsLegacy() throws {
            guard let corpus = try Fixtures.requireCorpus("everyLegacyModelIsReadOrRejectedAsLegacy") else { return }
            let files = ModelIOCorpus.modelFiles(named: "elements", in: corpus)
            #expect(!files.isEmpty)
            var read = 0
            for file in files {
                let name = ModelIOCorpus.relative(file, to: corpus)
                do {
                    let model = try ModelFile(path: file)
                    #expect(model.format == .legacyArchive)
                    #expect(!model.model.entities.isEmpty, "\(name): no entities")
                    read += 1
                } catch {
                    guard case .legacyFormat = error else {
                        Issue.record("\(name): rejected without the legacy-format message: \(error)")
                        continue
                    }
                    #expect(error.description.contains("legacy Xcode 3 model (elements archive)"))
                    print("  \(name): \(error)")
                }
            }
            print("legacy models: \(read) of \(files.count) read")
        }

        /// Apple's NSConference Recipes model (Xcode 3): sub-entities, configurations,
        /// relationships with inverses and delete rules, defaults.
        @Test func legacyModelWithInheritanceAndConfigurations() throws {
            guard let corpus = try Fixtures.requireCorpus("legacyModelWithInheritanceAndConfigurations") else { return }
            let path = corpus.appendingPathComponent("models/ducky007__NSConferenceiPhoneCoreDataRecipes/Recipes.xcdatamodel").path
            guard FileManager.default.fileExists(atPath: path) else { return }
            let model = try ModelFile(path: path).model
            #expect(model.entities.count == 12)
            #expect(model.entity(named: "LocalRecipe")?.parent == "Recipe")
            #expect(model.entity(named: "SyncedRecipeType")?.parent == "RecipeType")
            #expect(model.configurations.map(\.name) == ["Local", "iCloud"])
            #expect(model.configurations.first?.entities == ["LocalImage", "LocalIngredient", "LocalRecipe", "LocalRecipeType"])
            let ingredients = try #require(model.entity(named: "Recipe")?.relationship(named: "ingredients"))
            #expect(ingredients.isToMany && ingredients.deleteRule == .cascade && ingredients.inverse == "recipe")
            let name = try #require(model.entity(named: "Ingredient")?.attribute(named: "name"))
            #expect(!name.isOptional && name.defaultValue == "Ingredient Name")
            #expect(model.entity(named: "Recipe")?.attribute(named: "thumbnailImage")?.valueTransformerName == "ImageToDataTransformer")
        }

        @Test func everyBundleOpensAtItsCurrentVersion() throws {
            guard let corpus = try Fixtures.requireCorpus("everyBundleOpensAtItsCurrentVersion") else { return }
            let bundles = ModelIOCorpus.bundles(in: corpus)
            #expect(!bundles.isEmpty)
            var undetermined: [String] = []
            for path in bundles {
                let name = ModelIOCorpus.relative(path, to: corpus)
                let bundle = try ModelBundle(path: path)
                guard let current = bundle.currentVersion else {
                    // No usable .xccurrentversion and several versions: a typed error that lists
                    // the versions, and every version still opens by name.
                    undetermined.append("\(name): \(bundle.currentVersionProblem ?? "")")
                    #expect(throws: ModelFileError.self) { try ModelFile(path: path) }
                    for version in bundle.versions {
                        #expect(try ModelFile(path: path, version: version).version == version)
                    }
                    continue
                }
                do {
                    let file = try ModelFile(path: path)
                    #expect(file.version == current)
                    #expect(file.bundle?.versions == bundle.versions)
                } catch {
                    #expect(isDeliberate(error), "\(name): \(error)")
                }
            }
            print("bundles: \(bundles.count - undetermined.count) of \(bundles.count) opened at their current version")
            for line in undetermined { print("  no current version: \(line)") }
        }
    }
}
