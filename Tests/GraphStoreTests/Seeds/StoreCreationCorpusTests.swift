import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// `PersistentStore.create` (what `--create` runs) against stores Core Data made from models
/// the corpus has: the same schema text, the same `Z_PRIMARYKEY` entities and parents, and
/// the same version hashes.
@Suite struct StoreCreationCorpusTests {
    /// A model version file and a store Core Data wrote for it. Left out: SampleModel_V2
    /// (migrated: its Z_PRIMARYKEY keeps an entity's old name) and Recipes.sqlite (written
    /// before its model was edited; see docs/version-hashes.md), whose schema text matches too.
    static let pairs: [(model: String, store: String)] = [
        ("Apress__pro-ios-persistence/Ch04/BookStore/BookStore/BookStore.xcdatamodeld/BookStore.xcdatamodel",
         "Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel",
         "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite"),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel",
         "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite"),
        ("beepscore__FailedBankCD/FailedBankCD/FailedBankCD.xcdatamodeld/FailedBankCD.xcdatamodel",
         "beepscore__FailedBankCD/FailedBankCD/CoreDataTutorial2.sqlite"),
        ("bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld/TestModel.xcdatamodel",
         "bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite"),
        ("jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigration/Model.xcdatamodeld/v1.0.0.xcdatamodel",
         "jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigrationTests/Example_v1.0.0.sqlite"),
        ("jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigration/Model.xcdatamodeld/v2.0.0.xcdatamodel",
         "jeffreybergier__CoreDataMigrationTests/CoreDataMigration/CoreDataMigrationTests/Example_v2.0.0.sqlite"),
        ("linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/Model.xcdatamodeld/Model 6.xcdatamodel",
         "linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/DefaultData.sqlite"),
        ("nvovap__SurfJournal/SurJournal/SurJournal.xcdatamodeld/SurJournal.xcdatamodel",
         "nvovap__SurfJournal/SurJournal/CoreDataSeed/SurfJournalDatabase.sqlite"),
        ("wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld/CoreDataMigration_Example 3.xcdatamodel",
         "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite"),
    ]

    /// The schema text of a file, by name, Core Data's model cache tables left out (a new
    /// store has none until Core Data's own stack opens it).
    static func schema(_ path: String) throws -> [String: String] {
        let connection = try Connection(path: ReadOnlyAccess.immutable.uri(path), mode: .readOnly)
        var result: [String: String] = [:]
        for row in try connection.rows("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'Z_MODELCACHE%'") {
            result[row[0].description] = row[1].description
        }
        return result
    }

    @Test(arguments: 0..<10) func aNewStoreHasCoreDatasLayout(_ index: Int) throws {
        guard let corpus = try Fixtures.requireCorpus("aNewStoreHasCoreDatasLayout") else { return }
        let (modelPath, storePath) = Self.pairs[index]
        let model = try ModelFile.load(path: corpus.appendingPathComponent("models/" + modelPath).path, version: nil)
        let theirs = corpus.appendingPathComponent("stores/" + storePath).path
        let path = try Fixtures.newStorePath()
        let created = try PersistentStore.create(at: path, model: model)
        #expect(try Self.schema(path) == Self.schema(theirs), "\(storePath)")
        let original = try PersistentStore(path: theirs, model: model)
        let names = { (store: PersistentStore) in store.primaryKeyEntries.values.map { "\($0.number) \($0.name) \($0.superNumber)" }.sorted() }
        #expect(names(created) == names(original), "\(storePath)")
        #expect(created.primaryKeyEntries.values.allSatisfy { $0.max == 0 })
        // Same hash values for every entity the original's metadata names, and every key the
        // original's metadata has (newer frameworks add the digest and checksum).
        #expect(created.metadata.versionHashes == original.metadata.versionHashes, "\(storePath)")
        // Core Data's own keys (an app's keys, such as GroceryDude's DefaultDataImported, aside).
        let coreDataKeys = Set(original.metadata.keys.filter { $0.hasPrefix("NS") || $0.hasPrefix("_NS") })
        #expect(coreDataKeys.subtracting(created.metadata.keys).subtracting(["NSPersistenceMaximumFrameworkVersion"]).isEmpty,
                "\(storePath): \(coreDataKeys.subtracting(created.metadata.keys).sorted())")
    }
}
