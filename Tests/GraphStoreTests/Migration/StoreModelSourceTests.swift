import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// A store whose version the bundle no longer has (the model was edited without a new
    /// version, as Wire's regenerated 2-65-0 fixture is): its own model, kept in
    /// `Z_MODELCACHE`, is the migration's source, in one inferred step.
    @Suite struct StoreModelSourceTests {
        typealias F = MigrationFixtures

        @Test func theStoresOwnModelIsTheSourceWhenNoVersionFits() throws {
            let edited = try F.book(AttributeDescription("title", .string), AttributeDescription("isbn", .string))
            let v1 = try F.book(AttributeDescription("title", .string))
            let v2 = try F.book(AttributeDescription("title", .string), AttributeDescription("author", .string))
            let versions = F.versions(v1, v2)
            let path = try F.store(of: edited, cache: edited)
            do {
                let context = ManagedObjectContext(store: try PersistentStore(path: path, model: edited, origin: .given, readOnly: false))
                let book = try context.insert("Book")
                try book.set("title", "Dune")
                try book.set("isbn", "978-0441013593")
                try context.save()
                try context.store.checkpoint()
            }
            let match = try ModelVersionMatch(store: try PersistentStore(path: path), versions: versions)
            #expect(match.fitting.isEmpty && match.storeModel != nil)
            let plan = try MigrationPlan(match: match, versions: versions)
            #expect(plan.sourceVersion == ModelVersions.storeModelName && plan.steps.count == 1 && plan.steps[0].destination == "v2")
            #expect(plan.text.contains("  the store is at no version of the bundle: the migration starts from its own model, kept in Z_MODELCACHE\n"), "\(plan.text)")
            #expect(plan.store?.choice?.hasPrefix("no version of the bundle fits the store (nearest: ") == true)
            #expect(plan.outcome == "Can be migrated in 1 step; dropped: Book.isbn (step 1).")
            // A walk from the store's own model is the same one step: it has no place among the versions.
            #expect(try MigrationPlan(match: match, versions: versions, route: .everyVersion).steps.count == 1)

            let outcome = try MigrationManager(versions: versions).migrate(storeAt: path)
            #expect(outcome.replacedStore && outcome.objectCounts["Book"] == 1)
            let book = try #require(try ManagedObjectContext(store: try PersistentStore(path: path, model: v2)).fetch("Book").first)
            #expect(try book.get("title", as: String.self) == "Dune" && book.value(forKey: "author") == nil)
            #expect(try ModelVersionMatch(store: try PersistentStore(path: path), versions: versions).storeVersion == "v2")
        }

        /// A cache whose hashes are not the store's does not describe it: no source model.
        @Test func aCacheThatIsNotTheStoresModelIsNotTaken() throws {
            let edited = try F.book(AttributeDescription("title", .string), AttributeDescription("isbn", .string))
            let other = try F.book(AttributeDescription("name", .string))
            let versions = F.versions(try F.book(AttributeDescription("title", .string)))
            let path = try F.store(of: edited, cache: other)
            let match = try ModelVersionMatch(store: try PersistentStore(path: path), versions: versions)
            #expect(match.storeModel == nil)
            #expect(throws: MigrationError.noFittingVersion(store: path, bundle: "built", nearest: ["v1"])) {
                try MigrationPlan(match: match, versions: versions)
            }
        }
    }
}
