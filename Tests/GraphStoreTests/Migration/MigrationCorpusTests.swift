import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Every corpus store with a multi-version bundle beside it: the version it is (the
    /// answers of the version-hash research, FINDINGS §6), and its plan to the bundle's
    /// current version (one inferred step, and for some a walk through every version), or
    /// the exact reason it is refused.
    @Suite struct MigrationCorpusTests {
        struct Case: CustomStringConvertible {
            var store: String
            var bundle: String
            /// The versions that fit, and the one taken as the store's.
            var fitting: [String]
            var version: String
            /// Steps to the current version, and the plan's last line (its start, for a refusal).
            var steps: Int
            var outcome: String
            var refusal: MigrationRefusal.Code? = nil
            /// One step as Core Data infers it, or a walk through every version.
            var route: MigrationPlan.Route = .inferred

            var description: String { (store as NSString).lastPathComponent + (route == .inferred ? "" : " (walk)") }
        }

        static let apress = "models/Apress__pro-ios-persistence/Ch06/BookStore/BookStore/BookStore.xcdatamodeld"
        static let apressSwift = "models/Apress__pro-ios-persistence/Ch06/BookStoreSwift/BookStoreSwift/BookStoreSwift.xcdatamodeld"
        static let seed = "stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite"
        static let wibosco = "models/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        static let wiboscoStores = "stores/wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/"
        static let jeffrey = "models/jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigration/Model.xcdatamodeld"
        static let jeffreyStores = "stores/jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigrationTests/"
        static let alemar = "models/alemar11__CoreDataPlus/Tests/Resources/"
        static let alemarStores = "stores/alemar11__CoreDataPlus/Tests/Resources/"
        static let duck = "models/duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"
        static let duckStores = "stores/duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/"
        static let wire = "models/wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld"
        static let wireStores = "stores/wireapp__wire-ios-data-model/Tests/Resources/"
        static let jeffreyRenames = "every value is kept; "

        static let cases: [Case] = [
            // The seed never had the author that version 3 adds and version 4 splits in two:
            // one step carries every value, a walk adds and drops it.
            Case(store: seed, bundle: apress, fitting: ["BookStore"], version: "BookStore", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            // A walk meets the app's mapping model for 3 → 4, which Core Data would run with
            // the app's policy class.
            Case(store: seed, bundle: apress, fitting: ["BookStore"], version: "BookStore", steps: 4,
                 outcome: "Refused at step 3 (BookStore 3 → BookStore 4): Model3To4.xcmappingmodel: PublicationToPublication: names the migration policy PublicationToPublicationMigrationPolicy, which is not registered", refusal: .migrationFails,
                 route: .everyVersion),
            Case(store: seed, bundle: apressSwift, fitting: ["BookStoreSwift"], version: "BookStoreSwift", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            // The app walks its versions with its mapping models: inferred in one step, refused;
            // walking, 1 → 2 runs the app's mapping model, and 2 → 3 needs its policy class,
            // which only a Swift app registers (MappingModelCorpusRunTests ports it).
            Case(store: wiboscoStores + "CoreDataMigration_Example_1.sqlite", bundle: wibosco, fitting: ["CoreDataMigration_Example"],
                 version: "CoreDataMigration_Example", steps: 1,
                 outcome: "Refused at step 1 (CoreDataMigration_Example → CoreDataMigration_Example 4): Post.color: was the attribute color and is a relationship: a mapping model is needed (134140)",
                 refusal: .mappingModelNeeded),
            Case(store: wiboscoStores + "CoreDataMigration_Example_1.sqlite", bundle: wibosco, fitting: ["CoreDataMigration_Example"],
                 version: "CoreDataMigration_Example", steps: 3,
                 outcome: "Refused at step 2 (CoreDataMigration_Example 2 → CoreDataMigration_Example 3): Migration2to3.xcmappingmodel: PostToPost: names the migration policy CoreDataMigration_Example.Post2ToPost3MigrationPolicy",
                 refusal: .migrationFails, route: .everyVersion),
            Case(store: wiboscoStores + "CoreDataMigration_Example_2.sqlite", bundle: wibosco, fitting: ["CoreDataMigration_Example 2"],
                 version: "CoreDataMigration_Example 2", steps: 1,
                 outcome: "Refused at step 1 (CoreDataMigration_Example 2 → CoreDataMigration_Example 4): Post.color: is a new relationship that needs a destination",
                 refusal: .migrationFails),
            Case(store: wiboscoStores + "CoreDataMigration_Example_3.sqlite", bundle: wibosco, fitting: ["CoreDataMigration_Example 3"],
                 version: "CoreDataMigration_Example 3", steps: 1, outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: wiboscoStores + "CoreDataMigration_Example_WAL.sqlite", bundle: wibosco, fitting: ["CoreDataMigration_Example 4"],
                 version: "CoreDataMigration_Example 4", steps: 0, outcome: "Nothing to migrate: the store is at CoreDataMigration_Example 4."),
            // Renaming identifiers that chain from version to version: a walk carries the
            // values, the one step (whose identifier names the previous version's name) not.
            Case(store: jeffreyStores + "Example_v1.0.0.sqlite", bundle: jeffrey, fitting: ["v1.0.0"], version: "v1.0.0", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: BasicEntity.v1_0_0_name (step 1)."),
            Case(store: jeffreyStores + "Example_v1.0.0.sqlite", bundle: jeffrey, fitting: ["v1.0.0"], version: "v1.0.0", steps: 4,
                 outcome: "Can be migrated in 4 steps; every value is kept; 3 renames rest on a renaming identifier that names the old name",
                 route: .everyVersion),
            Case(store: jeffreyStores + "Example_v1.1.0.sqlite", bundle: jeffrey, fitting: ["v1.1.0"], version: "v1.1.0", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: BasicEntity.v1_1_0_name (step 1)."),
            Case(store: jeffreyStores + "Example_v1.1.2.sqlite", bundle: jeffrey, fitting: ["v1.1.2"], version: "v1.1.2", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: BasicEntity.v1_1_2_name (step 1)."),
            Case(store: jeffreyStores + "Example_v1.2.0.sqlite", bundle: jeffrey, fitting: ["v1.2.0"], version: "v1.2.0", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept; 1 rename rests on"),
            Case(store: jeffreyStores + "Example_v2.0.0.sqlite", bundle: jeffrey, fitting: ["v2.0.0"], version: "v2.0.0", steps: 0,
                 outcome: "Nothing to migrate: the store is at v2.0.0."),
            // The bundle's current version is its first, SampleModel: V1 is there, V2 goes back.
            Case(store: alemarStores + "SampleModel/Fixtures/SampleModel_V1.sqlite", bundle: alemar + "SampleModel/SampleModel.xcdatamodeld",
                 fitting: ["SampleModel"], version: "SampleModel", steps: 0, outcome: "Nothing to migrate: the store is at SampleModel."),
            Case(store: alemarStores + "SampleModel/Fixtures/SampleModel_V2.sqlite", bundle: alemar + "SampleModel/SampleModel.xcdatamodeld",
                 fitting: ["SampleModel2"], version: "SampleModel2", steps: 1,
                 outcome: "Refused at step 1 (SampleModel2 → SampleModel): Person.id: is a new required attribute with no default value",
                 refusal: .migrationFails),
            Case(store: alemarStores + "SampleModel3/Fixtures/SampleModel3_V1.sqlite", bundle: alemar + "SampleModel3/SampleModel3.xcdatamodeld",
                 fitting: ["SampleModel3"], version: "SampleModel3", steps: 0, outcome: "Nothing to migrate: the store is at SampleModel3."),
            Case(store: "stores/bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
                 bundle: "models/bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", fitting: ["TestModel"],
                 version: "TestModel", steps: 1, outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: "stores/linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/DefaultData.sqlite",
                 bundle: "models/linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/Model.xcdatamodeld", fitting: ["Model 6"],
                 version: "Model 6", steps: 0, outcome: "Nothing to migrate: the store is at Model 6."),
            Case(store: duckStores + "Bookmarks_V3.sqlite", bundle: duck, fitting: ["BookmarksModel 3"], version: "BookmarksModel 3", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: duckStores + "Bookmarks_V3.sqlite", bundle: duck, fitting: ["BookmarksModel 3"], version: "BookmarksModel 3", steps: 3,
                 outcome: "Can be migrated in 3 steps; every value is kept.", route: .everyVersion),
            Case(store: duckStores + "Bookmarks_V4.sqlite", bundle: duck, fitting: ["BookmarksModel 4"], version: "BookmarksModel 4", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: duckStores + "Bookmarks_V5.sqlite", bundle: duck, fitting: ["BookmarksModel 5"], version: "BookmarksModel 5", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            // Wire's fixtures, as its own tests migrate them: one inferred step each.
            Case(store: wireStores + "store1-25.wiredatabase", bundle: wire, fitting: ["zmessaging"], version: "zmessaging", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: Connection.modifiedDataFields (step 1), Conversation.archivedEventID_data (step 1), "),
            Case(store: wireStores + "store2-3.wiredatabase", bundle: wire, fitting: ["zmessaging2.3"], version: "zmessaging2.3", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: Connection.modifiedDataFields (step 1), "),
            Case(store: wireStores + "store2-21-1.wiredatabase", bundle: wire, fitting: ["zmessaging2.21.1"], version: "zmessaging2.21.1", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: Conversation.callStateNeedsToBeUpdatedFromBackend (step 1), "),
            Case(store: wireStores + "store2-30-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.30.0"], version: "zmessaging2.30.0", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: Conversation.callStateNeedsToBeUpdatedFromBackend (step 1), "),
            Case(store: wireStores + "store2-45-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.45.0"], version: "zmessaging2.45.0", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: Conversation.draftMessageText (step 1), Conversation.isSilenced (step 1), "),
            Case(store: wireStores + "store2-60-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.60.0"], version: "zmessaging2.60.0", steps: 1,
                 outcome: "Can be migrated in 1 step; dropped: User.imageMediumData (step 1), "),
            // legacyPushToken came after 2.75.0 and went again: only a walk adds and drops it.
            Case(store: wireStores + "store2-75-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.75.0"], version: "zmessaging2.75.0", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: wireStores + "store2-75-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.75.0"], version: "zmessaging2.75.0", steps: 24,
                 outcome: "Can be migrated in 24 steps; dropped: UserClient.legacyPushToken (step 23).", route: .everyVersion),
            Case(store: wireStores + "store2-90-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.90.0"], version: "zmessaging2.90.0", steps: 1,
                 outcome: "Can be migrated in 1 step; every value is kept."),
            // Hash-identical to 2.98.0; the store's version identifiers say 2.100.0.
            Case(store: wireStores + "store2-100-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.98.0", "zmessaging2.100.0"],
                 version: "zmessaging2.100.0", steps: 1, outcome: "Can be migrated in 1 step; every value is kept."),
            Case(store: wireStores + "store2-101-0.wiredatabase", bundle: wire, fitting: ["zmessaging2.101.0"], version: "zmessaging2.101.0", steps: 0,
                 outcome: "Nothing to migrate: the store is at zmessaging2.101.0."),
        ]

        @Test(arguments: cases) func storeVersionAndPlan(_ test: Case) throws {
            guard let corpus = try Fixtures.requireCorpus("storeVersionAndPlan") else { return }
            let path = corpus.appendingPathComponent(test.store).path
            let before = Fixtures.fingerprint(path)
            let store = try PersistentStore(path: path)
            let versions = try ModelVersions(path: corpus.appendingPathComponent(test.bundle).path)
            let match = try ModelVersionMatch(store: store, versions: versions)
            #expect(match.fitting == test.fitting)
            #expect(match.storeVersion == test.version)
            // Every corpus store carries hashes that decide, every entity both ways.
            let candidate = try #require(match.candidates.first { $0.name == test.version })
            #expect(candidate.method == .versionHashes && candidate.agreeingHashes == candidate.entityCount && candidate.differences.isEmpty)
            // With the project's mapping models, as MigrationManager(bundle:) and migrate take them.
            let mappingModels = MappingModelCandidate.around(bundle: versions.path, versions: versions)
            let plan = try MigrationPlan(match: match, versions: versions, route: test.route, mappingModels: mappingModels)
            #expect(plan.steps.count == test.steps && plan.targetIsCurrent)
            #expect(plan.outcome.hasPrefix(test.outcome), "\(plan.outcome)")
            #expect(plan.isRefused == (test.refusal != nil))
            if let code = test.refusal { #expect(plan.refusals.first?.code == code) }
            #expect(Fixtures.fingerprint(path) == before, "the store changed")
        }

        /// A store none of whose bundle's versions fits: the nearest is named with what
        /// differs. The Recipes store was written by Apple's original model; the
        /// repository's model was edited later (optional attributes, to-one minimums). Its
        /// own model, kept in Z_MODELCACHE, is then the migration's source.
        @Test func recipesFitsNoVersionOfItsRepositorysModel() throws {
            guard let corpus = try Fixtures.requireCorpus("recipesFitsNoVersionOfItsRepositorysModel") else { return }
            let store = try PersistentStore(path: corpus.appendingPathComponent("stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite").path)
            let versions = try ModelVersions(path: corpus.appendingPathComponent("models/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld").path)
            let match = try ModelVersionMatch(store: store, versions: versions)
            #expect(match.fitting.isEmpty && match.nearest == ["Recipes"] && match.storeVersion == nil)
            let differences = try #require(match.candidates.first?.differences)
            #expect(match.candidates.first?.agreeingHashes == 1 && match.candidates.first?.entityCount == 4)
            // The store's own model cache names each property that differs.
            #expect(differences.contains(ModelDifference(.attribute, entity: "Ingredient", property: "name", "optional: false in the store, true in this version")))
            #expect(differences.allSatisfy { $0.kind == .attribute || $0.kind == .relationship }, "\(differences)")
            let plan = try MigrationPlan(match: match, versions: versions)
            #expect(plan.sourceVersion == ModelVersions.storeModelName && plan.store?.method == .modelCache)
            #expect(plan.outcome == "Can be migrated in 1 step; every value is kept.", "\(plan.text)")
            #expect(plan.text.contains("    name: becomes optional"))
        }
    }
}
