import Foundation
import Testing
@testable import GraphStore

/// Binary attributes with external storage: Core Data's tagged blobs and `_EXTERNAL_DATA` files.
@Suite struct ExternalBinaryDataTests {
    private func model() throws -> ManagedObjectModel {
        var photo = AttributeDescription("photo", .binaryData)
        photo.allowsExternalBinaryDataStorage = true
        return try ManagedObjectModel(entities: [EntityDescription("Item", attributes: [photo, AttributeDescription("name", .string)])])
    }

    @Test func writtenInlineWithTheTagAndReadBack() throws {
        let path = try Fixtures.newStorePath("Photos.sqlite")
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model()))
        try context.insert("Item").set("photo", Data([0xFF, 0xD8, 0xFF]))
        try context.save()
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.scalar("SELECT hex(ZPHOTO) FROM ZITEM") == .text("01FFD8FF"))
        let fresh = ManagedObjectContext(store: try PersistentStore(path: path, model: model()))
        #expect(try fresh.fetch("Item").first?.get("photo", as: Data.self) == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test func externalReferencesReadTheFileOrReportItMissing() throws {
        let path = try Fixtures.newStorePath("Photos.sqlite")
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model()))
        try context.insert("Item").set("name", "kept outside")
        try context.insert("Item").set("name", "lost")
        try context.save()
        let folder = (path as NSString).deletingLastPathComponent + "/.Photos_SUPPORT/_EXTERNAL_DATA"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("large bytes".utf8).write(to: URL(fileURLWithPath: folder + "/0B9D0E6C-AAAA-4A8E-9B7A-3C5D7E9F1A2B"))
        let raw = try Connection(path: path, mode: .readWrite)
        try raw.execute("UPDATE ZITEM SET ZPHOTO = CAST(x'02' || '0B9D0E6C-AAAA-4A8E-9B7A-3C5D7E9F1A2B' || x'00' AS BLOB) WHERE Z_PK = 1")
        try raw.execute("UPDATE ZITEM SET ZPHOTO = CAST(x'02' || 'FFFFFFFF-0000-0000-0000-000000000000' AS BLOB) WHERE Z_PK = 2")
        let store = try PersistentStore(path: path, model: model())
        var rows: [StoredRow] = []
        try store.forEachRow(of: try store.mapping(for: "Item")) { rows.append($0) }
        // Rows hold references; the files are read when the values are asked for.
        #expect(rows[0].attributes[0] == nil)
        #expect(rows[0].externalReferences[0]?.name == "0B9D0E6C-AAAA-4A8E-9B7A-3C5D7E9F1A2B")
        #expect(try rows[0].attributeValue(at: 0) == .data(Data("large bytes".utf8)))
        #expect(rows[0].problems.isEmpty && rows[1].problems.isEmpty)
        #expect(rows[1].externalReferences[0]?.exists == false)
        #expect(throws: StoreError.externalDataMissing(entity: "Item", primaryKey: 2, key: "photo", file: folder + "/FFFFFFFF-0000-0000-0000-000000000000")) {
            try rows[1].attributeValue(at: 0)
        }
        // A fetch reads both objects; only the missing value is an error, and only when read.
        let objects = try ManagedObjectContext(store: store).fetch("Item")
        #expect(objects.count == 2)
        #expect(try objects[0].get("photo", as: Data.self) == Data("large bytes".utf8))
        #expect(try objects[1].get("name", as: String.self) == "lost")
        #expect(throws: StoreError.self) { try objects[1].value(forKey: "photo") }
    }
}
