import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Type changes between Boolean, integer and floating-point attributes are carried as
    /// SQLite converts their numbers: always where every value survives, and where some
    /// would not, only when the store holds none of those (else 134110 before anything is
    /// written, naming the objects). Other type changes need a mapping model (134140).
    @Suite struct AttributeTypeConversionTests {
        typealias F = MigrationFixtures

        @Test func whichChangesAreCarried() {
            let int16 = Int64(Int16.min)...Int64(Int16.max)
            #expect(AttributeTypeConversion.of(.boolean, to: .integer32) == .everyValue)
            #expect(AttributeTypeConversion.of(.integer16, to: .integer64) == .everyValue)
            #expect(AttributeTypeConversion.of(.integer32, to: .double) == .everyValue)
            #expect(AttributeTypeConversion.of(.float, to: .double) == .everyValue)
            #expect(AttributeTypeConversion.of(.integer64, to: .integer16) == .valuesThatFit(.wholeNumber(in: int16)))
            #expect(AttributeTypeConversion.of(.double, to: .integer16) == .valuesThatFit(.wholeNumber(in: int16)))
            #expect(AttributeTypeConversion.of(.integer32, to: .boolean) == .valuesThatFit(.wholeNumber(in: 0...1)))
            #expect(AttributeTypeConversion.of(.integer64, to: .double) == .valuesThatFit(.magnitude(atMost: 1 << 53)))
            #expect(AttributeTypeConversion.of(.integer32, to: .float) == .valuesThatFit(.magnitude(atMost: 1 << 24)))
            for (from, to) in [(AttributeType.double, AttributeType.float), (.string, .integer32), (.integer32, .string), (.decimal, .double), (.date, .double)] {
                #expect(AttributeTypeConversion.of(from, to: to) == nil, "\(from) → \(to)")
            }
        }

        /// v1: Boolean `isSilenced`, Integer 64 `pages`, Double `rating`; v2: `mutedStatus`
        /// (Integer 32, renamed from isSilenced, as Wire's model did), Integer 16 `pages`,
        /// Integer 16 `rating`.
        static func versions() throws -> ModelVersions {
            let v1 = try ManagedObjectModel(entities: [EntityDescription("Book", attributes: [
                AttributeDescription("isSilenced", .boolean), AttributeDescription("pages", .integer64), AttributeDescription("rating", .double),
            ])])
            let v2 = try ManagedObjectModel(entities: [EntityDescription("Book", attributes: [
                F.renamed(AttributeDescription("mutedStatus", .integer32), from: "isSilenced"),
                AttributeDescription("pages", .integer16), AttributeDescription("rating", .integer16),
            ])])
            return F.versions(v1, v2)
        }

        static func store(_ rows: [(Bool?, Int64, Double)], versions: ModelVersions) throws -> String {
            let path = try Fixtures.newStorePath()
            let store = try PersistentStore.create(at: path, model: try #require(versions.version(named: "v1")).model)
            let context = ManagedObjectContext(store: store)
            for (flag, pages, rating) in rows {
                let book = try context.insert("Book")
                if let flag { try book.setValue(.bool(flag), forKey: "isSilenced") }
                try book.setValue(.integer(pages), forKey: "pages")
                try book.setValue(.double(rating), forKey: "rating")
            }
            try context.save()
            try store.checkpoint()
            return path
        }

        @Test func numbersThatFitAreCarriedConverted() throws {
            let versions = try Self.versions()
            let path = try Self.store([(true, 300, 4.0), (false, -2, -1.0), (nil, 0, 0)], versions: versions)
            let plan = try MigrationManager(versions: versions).plan(forStoreAt: path)
            #expect(!plan.isRefused, "\(plan.refusals)")
            #expect(plan.text.contains("changes type from Boolean to Integer 32 (every value converts)"), "\(plan.text)")
            _ = try MigrationManager(versions: versions).migrate(storeAt: path)
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: try #require(versions.version(named: "v2")).model))
            let books = try context.fetch("Book").sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
            #expect(try books.map { try $0.value(forKey: "mutedStatus") } == [.integer(1), .integer(0), nil])
            #expect(try books.map { try $0.value(forKey: "pages") } == [.integer(300), .integer(-2), .integer(0)])
            #expect(try books.map { try $0.value(forKey: "rating") } == [.integer(4), .integer(-1), .integer(0)])
        }

        @Test func aValueTheNewTypeCannotHoldRefusesBeforeAnythingIsWritten() throws {
            let versions = try Self.versions()
            let path = try Self.store([(true, 70_000, 4.5), (false, 1, 2.5), (true, 2, 3)], versions: versions)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let plan = try MigrationManager(versions: versions).plan(forStoreAt: path)
            let places = plan.refusals.map(\.place).sorted()
            #expect(places == ["Book.pages", "Book.rating"], "\(plan.refusals)")
            #expect(plan.refusals.allSatisfy { $0.code == .migrationFails })
            #expect(plan.refusals.contains { $0.reason.contains("1 Book object holds a value Integer 16 cannot hold (Book/p1 is one)") })
            #expect(plan.refusals.contains { $0.reason.contains("2 Book objects hold a value Integer 16 cannot hold (Book/p1 is one)") })
            #expect(throws: (any Error).self) { try MigrationManager(versions: versions).migrate(storeAt: path) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }

        @Test func otherTypeChangesNeedAMappingModel() throws {
            let refusals = InferredMapping(
                from: try ManagedObjectModel(entities: [EntityDescription("Book", attributes: [AttributeDescription("year", .string)])]),
                to: try ManagedObjectModel(entities: [EntityDescription("Book", attributes: [AttributeDescription("year", .integer32)])])).refusals
            #expect(refusals.count == 1 && refusals[0].code == .mappingModelNeeded)
            #expect(refusals.first?.reason.contains("changes type from String to Integer 32; GraphStore's inference carries only changes between Boolean, integer and floating-point types") == true)
        }
    }
}
