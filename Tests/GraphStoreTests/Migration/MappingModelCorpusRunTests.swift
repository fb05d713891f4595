import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// The corpus's mapping models that have a source store beside them, run end to end
    /// with Swift ports of the policies their apps register, and checked object by object
    /// against the store they started from.
    @Suite struct MappingModelCorpusRunTests {
        static let wibosco = "wibosco__CoreDataMigration-Example"
        static let alemar = "alemar11__CoreDataPlus"

        static func copy(_ store: String, corpus: URL) throws -> String {
            let path = try Fixtures.newStorePath()
            try FileManager.default.copyItem(atPath: corpus.appendingPathComponent("stores/" + store).path, toPath: path)
            return path
        }

        /// The example's first store walked to version 4: Migration1to2 renames `color` to
        /// `hexColor` by its value expression, Migration2to3 turns it into a Color object by
        /// the app's policy, and 3 → 4 is inferred.
        @Test func wiboscoWalksThroughBothMappingModelsAndItsPolicy() throws {
            guard let corpus = try Fixtures.requireCorpus("wiboscoWalksThroughBothMappingModelsAndItsPolicy") else { return }
            let path = try Self.copy("\(Self.wibosco)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite", corpus: corpus)
            let bundle = corpus.appendingPathComponent(
                "models/\(Self.wibosco)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
            let colors = try Self.values(path, sql: "SELECT ZPOSTID, ZCOLOR FROM ZPOST")
            #expect(colors.count == 1001)

            var policies = MigrationPolicies()
            policies.register(Post2ToPost3MigrationPolicy.self)
            let manager = try MigrationManager(bundle: bundle, policies: policies)
            let plan = try manager.plan(forStoreAt: path, route: .everyVersion)
            #expect(plan.steps.map { $0.mappingModel.map { ($0 as NSString).lastPathComponent } } == [
                "Migration1to2.xcmappingmodel", "Migration2to3.xcmappingmodel", nil,
            ])
            let outcome = try manager.migrate(storeAt: path, route: .everyVersion, options: .init(keepsBackup: false, mappingBatchSize: 100))
            #expect(outcome.objectCounts == ["Post": 1001, "Color": 1001])

            let migrated = try Self.values(path, sql: "SELECT p.ZPOSTID, c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR")
            #expect(migrated == colors)
            let linked = try Self.values(path, sql: "SELECT count(*), count(DISTINCT c.ZCOLORID) FROM ZCOLOR c JOIN ZPOST p ON c.ZPOST = p.Z_PK")
            #expect(linked == ["1001": "1001"])
        }

        /// CoreDataPlus's V2 store through V2toV3: every car keeps its owner and takes it as
        /// its one previous owner (the file's expression), people take their cars as their
        /// previous cars, and the app's policy makes one Maker per maker name.
        @Test func coreDataPlusRunsV2toV3WithItsMakerPolicy() throws {
            guard let corpus = try Fixtures.requireCorpus("coreDataPlusRunsV2toV3WithItsMakerPolicy") else { return }
            let path = try Self.copy("\(Self.alemar)/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite", corpus: corpus)
            let bundle = corpus.appendingPathComponent("models/\(Self.alemar)/Tests/Resources/SampleModel/SampleModel.xcdatamodeld").path
            let owners = try Self.values(path, sql: "SELECT c.ZNUMBERPLATE, p.ZFIRSTNAME || ' ' || p.ZLASTNAME FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER")
            let makers = try Self.values(path, sql: "SELECT ZNUMBERPLATE, ZMAKER FROM ZCAR")

            var policies = MigrationPolicies()
            policies.register(V2to3MakerPolicy.self)
            let manager = try MigrationManager(bundle: bundle, policies: policies)
            let outcome = try manager.migrate(storeAt: path, to: "SampleModel3", options: .init(keepsBackup: false, mappingBatchSize: 16))
            #expect(outcome.objectCounts == ["Car": 115, "SportCar": 5, "LuxuryCar": 5, "Person": 20, "Maker": 10])

            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: try #require(manager.versions.version(named: "SampleModel3")).model))
            for car in try context.fetch("Car") {
                let plate = try #require(try car.get("numberPlate", as: String.self))
                let owner = try car.object(forKey: "owner")
                let name = try owner.map { "\(try $0.get("firstName", as: String.self) ?? "") \(try $0.get("lastName", as: String.self) ?? "")" }
                #expect((name ?? "nil") == owners[plate], "\(plate)")
                #expect(try car.objects(forKey: "previousOwners").map(\.objectID) == (owner.map { [$0.objectID] } ?? []))
                #expect(try car.object(forKey: "createdBy")?.get("name", as: String.self) == makers[plate])
            }
            for person in try context.fetch("Person") {
                #expect(Set(try person.objects(forKey: "previousCars").map(\.objectID)) == Set(try person.objects(forKey: "cars").map(\.objectID)))
            }
        }

        /// Two columns of a query as a dictionary.
        static func values(_ path: String, sql: String) throws -> [String: String] {
            let connection = try Connection(path: path, mode: .readOnly)
            var values: [String: String] = [:]
            for row in try connection.rows(sql) {
                values[row[0].text] = row[1].text
            }
            return values
        }
    }
}

extension SQLiteValue {
    /// The value as text, as the tests compare it.
    fileprivate var text: String {
        switch self {
        case .null: "nil"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): v
        case .blob(let v): v.base64EncodedString()
        }
    }
}

/// The example app's policy, in Swift: each post's hex color becomes a Color object.
final class Post2ToPost3MigrationPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        let post = try #require(try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first)
        let color = try manager.destinationContext.insert("Color")
        try color.set("colorID", UUID().uuidString)
        try color.set("hex", try source.get("hexColor", as: String.self))
        try post.setObject(color, forKey: "color")
    }
}

/// CoreDataPlus's policy, in Swift: a car's maker name becomes one shared Maker object,
/// found again by a fetch (objects are let go of at every save of the run).
final class V2to3MakerPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        guard let name = try source.get("maker", as: String.self) else { return }
        let car = try #require(try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first)
        let context = manager.destinationContext
        let maker = try context.fetch(try FetchRequest(entityName: "Maker", format: "name == %@", name)).first ?? {
            let made = try context.insert("Maker")
            try made.set("name", name)
            return made
        }()
        try car.setObject(maker, forKey: "createdBy")
    }
}
