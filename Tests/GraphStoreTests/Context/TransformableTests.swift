import Foundation
import Testing
@testable import GraphStore

/// A colour a custom transformer stores as three bytes.
struct TestColor: Hashable {
    var red: UInt8, green: UInt8, blue: UInt8
}

/// `ColorTransformer`, as an app writes one for Core Data: model value → `Data` in
/// `transformedValue`, `Data` → model value in `reverseTransformedValue`.
final class TestColorTransformer: ValueTransformer, @unchecked Sendable {
    override class func allowsReverseTransformation() -> Bool { true }
    override func transformedValue(_ value: Any?) -> Any? {
        (value as? TestColor).map { Data([$0.red, $0.green, $0.blue]) }
    }
    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data, data.count == 3 else { return nil }
        return TestColor(red: data[data.startIndex], green: data[data.startIndex + 1], blue: data[data.startIndex + 2])
    }
}

/// A typed class with Transformable properties.
final class TransformableNote: ManagedObject, EntityObject {
    class var entityName: String { "Note" }
    private static let propertyNames: PropertyNames<TransformableNote> = [\.title: "title"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("title") var title: String?
    @Transformable("tags") var tags: [String]?
    @Transformable("info") var info: [String: Any]?
    @Transformable("color") var color: TestColor?
}

/// Transformable attributes through their value transformers: `NSSecureUnarchiveFromData`
/// (named, and as Core Data's default when no transformer is named), a custom transformer
/// registered by name, one the app did not register; read and written with the keyed and
/// typed APIs, saved and read back, with the stored bytes untouched by reads.
@Suite(.serialized) struct TransformableTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("title", .string)
                Self.transformable("tags", transformer: "NSSecureUnarchiveFromData")
                Self.transformable("info", transformer: nil)
                Self.transformable("color", transformer: "TestColorTransformer")
                Self.transformable("secret", transformer: "UnregisteredTransformer")
            }
        }
    }

    static func transformable(_ name: String, transformer: String?) -> AttributeDescription {
        var attribute = AttributeDescription(name, .transformable)
        attribute.valueTransformerName = transformer
        return attribute
    }

    let path: String
    let store: PersistentStore

    init() throws {
        ValueTransformer.setValueTransformer(TestColorTransformer(), forName: NSValueTransformerName("TestColorTransformer"))
        path = try Fixtures.newStorePath()
        store = try PersistentStore.create(at: path, model: try Self.model())
    }

    /// The first value of an SQL query on the store's file, read with a store of its own.
    func firstValue(_ sql: String) throws -> SQLiteValue? {
        let reader = try PersistentStore(path: path, model: try Self.model())
        var value: SQLiteValue?
        try reader.forEachRow(readOnlySQL: sql) { row in value = row.first }
        return value
    }

    /// The bytes stored in a note's column, read with SQL alone.
    func storedBytes(_ column: String, key: Int64 = 1) throws -> Data? {
        guard case .blob(let data)? = try firstValue("SELECT \(column) FROM ZNOTE WHERE Z_PK = \(key)") else { return nil }
        return data
    }

    @Test func keyedAPIWritesArchivesAndReadsThemBack() throws {
        let context = ManagedObjectContext(store: store)
        let note = try context.insert("Note")
        try note.setTransformedValue(["fiction", "classic"], forKey: "tags")
        try note.setTransformedValue(["pages": 412, "title": "Dune", "read": true] as [String: Any], forKey: "info")
        try note.setTransformedValue(TestColor(red: 1, green: 2, blue: 3), forKey: "color")
        try context.save()

        // What the store holds: NSKeyedArchiver archives, and the custom transformer's bytes.
        let tagBytes = try #require(try storedBytes("ZTAGS"))
        #expect(try PropertyListValue(keyedArchive: tagBytes) == ["fiction", "classic"])
        #expect(try storedBytes("ZCOLOR") == Data([1, 2, 3]))
        #expect(try PropertyListValue(keyedArchive: try #require(try storedBytes("ZINFO"))) == ["pages": 412, "title": "Dune", "read": true])

        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: try Self.model()))
        let read = try #require(try reader.fetch("Note").first)
        #expect(try read.transformedValue(forKey: "tags") as? [String] == ["fiction", "classic"])
        #expect(try read.transformedValue(forKey: "tags", as: [String].self) == ["fiction", "classic"])
        #expect(try read.transformedValue(forKey: "tags", as: PropertyListValue.self) == ["fiction", "classic"])
        let info = try #require(try read.transformedValue(forKey: "info", as: [String: Any].self))
        #expect(info["pages"] as? Int == 412)
        #expect(info["read"] as? Bool == true)
        #expect(try read.transformedValue(forKey: "color", as: TestColor.self) == TestColor(red: 1, green: 2, blue: 3))
        // The raw bytes stay readable as Data.
        #expect(try read.get("tags", as: Data.self) == tagBytes)
        // A transformer the app did not register is an error, even with no value stored.
        #expect(throws: TransformerError.self) { try read.transformedValue(forKey: "secret") }
        #expect(throws: StoreError.self) { try read.transformedValue(forKey: "tags", as: Int.self) }
    }

    @Test func readingChangesNothingAndAnEqualValueIsNoChange() throws {
        let context = ManagedObjectContext(store: store)
        let note = try context.insert("Note")
        try note.setTransformedValue(["b": 2, "a": 1] as [String: Any], forKey: "info")
        try context.save()
        let before = try #require(try storedBytes("ZINFO"))
        let version = try firstValue("SELECT Z_OPT FROM ZNOTE")

        let other = ManagedObjectContext(store: try PersistentStore(path: path, model: try Self.model(), readOnly: false))
        let read = try #require(try other.fetch("Note").first)
        _ = try read.transformedValue(forKey: "info")
        #expect(!read.hasChanges)
        // An equal dictionary, built in another order, is not a change; the save writes nothing.
        try read.setTransformedValue(["a": 1, "b": 2] as [String: Any], forKey: "info")
        #expect(!read.hasChanges)
        try other.save()
        #expect(try storedBytes("ZINFO") == before)
        #expect(try firstValue("SELECT Z_OPT FROM ZNOTE") == version)

        // A different value is a change of that attribute only.
        try read.setTransformedValue(["a": 1] as [String: Any], forKey: "info")
        #expect(read.changedKeys() == ["info"])
        try other.save()
        #expect(try PropertyListValue(keyedArchive: try #require(try storedBytes("ZINFO"))) == ["a": 1])
        try read.setTransformedValue(nil, forKey: "info")
        try other.save()
        #expect(try storedBytes("ZINFO") == nil)
    }

    @Test func errorsNameTheTransformerTheObjectAndTheAttribute() throws {
        let context = ManagedObjectContext(store: store)
        let note = try context.insert("Note")
        try note.setValue(.data(Data("not an archive".utf8)), forKey: "secret")
        try note.setValue(.data(Data("bplist00 damaged".utf8)), forKey: "tags")
        try context.save()
        let id = note.objectID.description

        #expect(throws: TransformerError(.unregistered, transformerName: "UnregisteredTransformer", object: id, key: "secret")) {
            try note.transformedValue(forKey: "secret")
        }
        #expect(try note.value(forKey: "secret") == .data(Data("not an archive".utf8)))
        let damaged = try #require(throws: TransformerError.self) { try note.transformedValue(forKey: "tags") }
        #expect(damaged.object == id && damaged.key == "tags" && damaged.transformerName == "NSSecureUnarchiveFromData")
        #expect("\(damaged)".hasPrefix("\(id) tags: NSSecureUnarchiveFromData cannot read the stored bytes: "))
        #expect(throws: TransformerError(.notArchivable("TestColor"), transformerName: "NSSecureUnarchiveFromData", object: id, key: "tags")) {
            try note.setTransformedValue(TestColor(red: 0, green: 0, blue: 0), forKey: "tags")
        }
        #expect(throws: TransformerError(.notTransformable("String"), transformerName: "", object: id, key: "title")) {
            try note.transformedValue(forKey: "title")
        }
        let failed = try #require(throws: TransformerError.self) { try note.setTransformedValue("a string", forKey: "color") }
        #expect(failed.reason == .transformationFailed("transformedValue gave nil, not Data, for a value of type String"))
        // The value that failed to write left the stored one as it was.
        #expect(try note.value(forKey: "tags") == .data(Data("bplist00 damaged".utf8)))
    }

    @Test func typedPropertiesReadAndWriteTransformedValues() throws {
        let context = ManagedObjectContext(store: store)
        let note = TransformableNote(context: context)
        note.title = "Dune"
        note.tags = ["fiction"]
        note.info = ["pages": 412]
        note.color = TestColor(red: 9, green: 8, blue: 7)
        try context.save()

        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: try Self.model()))
        let read = try #require(try reader.fetch(FetchRequest<TransformableNote>()).first)
        #expect(read.tags == ["fiction"])
        #expect(read.info?["pages"] as? Int == 412)
        #expect(read.color == TestColor(red: 9, green: 8, blue: 7))
        #expect(reader.accessErrors.isEmpty)

        // A failure reads nil and is kept by the context.
        let writer = ManagedObjectContext(store: try PersistentStore(path: path, model: try Self.model(), readOnly: false))
        let broken = try #require(try writer.fetch(FetchRequest<TransformableNote>()).first)
        try broken.setValue(.data(Data([0, 1, 2])), forKey: "tags")
        #expect(broken.tags == nil)
        #expect(writer.accessErrors.count == 1)
    }

    /// The registry: Foundation's two unarchiving transformers are there from the start; an
    /// app's transformer is found by name, and removed with nil.
    @Test func theRegistryHoldsTransformersByName() throws {
        #expect(ValueTransformer.valueTransformer(forName: .secureUnarchiveFromDataTransformerName) is SecureUnarchiveFromDataTransformer)
        #expect(ValueTransformer.valueTransformer(forName: .keyedUnarchiveFromDataTransformerName) is SecureUnarchiveFromDataTransformer)
        ValueTransformer.setValueTransformer(TestColorTransformer(), forName: "TemporaryTransformer")
        #expect(ValueTransformer.valueTransformerNames().contains("TemporaryTransformer"))
        ValueTransformer.setValueTransformer(nil, forName: "TemporaryTransformer")
        #expect(ValueTransformer.valueTransformer(forName: "TemporaryTransformer") == nil)
        // Foundation's direction: the unarchiving transformer unarchives in transformedValue.
        let secure = SecureUnarchiveFromDataTransformer()
        let bytes = try #require(secure.reverseTransformedValue(["a", "b"]) as? Data)
        #expect(secure.transformedValue(bytes) as? [String] == ["a", "b"])
    }
}
