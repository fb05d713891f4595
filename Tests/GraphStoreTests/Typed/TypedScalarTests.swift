import Foundation
import Testing
@testable import GraphStore

/// An entity with an attribute of every type, read as Swift types optional and not.
final class TypedSample: ManagedObject, EntityObject {
    class var entityName: String { "Sample" }
    class func propertyName(for keyPath: AnyKeyPath) -> String? { nil }

    @Attribute("int16") var int16: Int16
    @Attribute("int32") var int32: Int32?
    @Attribute("int64") var int64: Int64
    @Attribute("bool") var bool: Bool
    @Attribute("float") var float: Float?
    @Attribute("double") var double: Double
    @Attribute("decimal") var decimal: Decimal?
    @Attribute("string") var string: String
    @Attribute("date") var date: Date?
    @Attribute("data") var data: Data?
    @Attribute("uuid") var uuid: UUID?
    @Attribute("url") var url: URL?
    /// A narrower type than the model's (an app's mistake): values that do not fit read 0.
    @Attribute("int64") var int64AsInt16: Int16
}

@Suite struct TypedScalarTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Sample") {
                AttributeDescription("int16", .integer16)
                AttributeDescription("int32", .integer32)
                AttributeDescription("int64", .integer64, optional: false, default: .integer(7))
                AttributeDescription("bool", .boolean)
                AttributeDescription("float", .float)
                AttributeDescription("double", .double)
                AttributeDescription("decimal", .decimal)
                AttributeDescription("string", .string)
                AttributeDescription("date", .date)
                AttributeDescription("data", .binaryData)
                AttributeDescription("uuid", .uuid)
                AttributeDescription("url", .uri)
            }
        }
    }

    @Test func aNewObjectReadsDefaultsEmptyValuesAndNil() throws {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: Self.model()))
        let sample = TypedSample(context: context)
        #expect(sample.int64 == 7)
        #expect(sample.int16 == 0 && sample.bool == false && sample.double == 0 && sample.string == "")
        #expect(sample.int32 == nil && sample.float == nil && sample.decimal == nil && sample.date == nil)
        #expect(sample.data == nil && sample.uuid == nil && sample.url == nil)
        #expect(context.accessErrors.isEmpty)
    }

    @Test func everyTypeRoundTripsThroughTheStore() throws {
        let path = try Fixtures.newStorePath()
        let date = Date(timeIntervalSinceReferenceDate: 750_000_000.25)
        let uuid = UUID()
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Self.model()))
            let sample = TypedSample(context: context)
            sample.int16 = -12
            sample.int32 = 70_000
            sample.int64 = 1 << 40
            sample.bool = true
            sample.float = 1.5
            sample.double = 2.25
            sample.decimal = Decimal(string: "12.34")
            sample.string = "héllo"
            sample.date = date
            sample.data = Data([1, 2, 3])
            sample.uuid = uuid
            sample.url = URL(string: "https://example.com/a")
            #expect(sample.isInserted)
            try context.save()
        }
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: Self.model()))
        context.register(TypedSample.self)
        let sample = try #require(try context.fetch("Sample").first as? TypedSample)
        #expect(sample.int16 == -12 && sample.int32 == 70_000 && sample.int64 == 1 << 40 && sample.bool)
        #expect(sample.float == 1.5 && sample.double == 2.25 && sample.decimal == Decimal(string: "12.34"))
        #expect(sample.string == "héllo" && sample.date == date && sample.data == Data([1, 2, 3]))
        #expect(sample.uuid == uuid && sample.url == URL(string: "https://example.com/a"))
        #expect(context.accessErrors.isEmpty)
    }

    @Test func writingNilClearsAnOptionalAttribute() throws {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: Self.model()))
        let sample = TypedSample(context: context)
        sample.int32 = 3
        sample.int32 = nil
        #expect(sample.int32 == nil)
        #expect(try sample.value(forKey: "int32") == nil)
    }

    @Test func aValueOutOfTheSwiftTypesRangeIsKeptNotTrapped() throws {
        let context = ManagedObjectContext(store: try PersistentStore.create(at: try Fixtures.newStorePath(), model: Self.model()))
        let sample = TypedSample(context: context)
        sample.int64 = 1 << 20
        #expect(sample.int64AsInt16 == 0)
        #expect(context.accessErrors.map(\.key) == ["int64"])
        sample.int64 = 12
        #expect(sample.int64AsInt16 == 12)
    }
}
