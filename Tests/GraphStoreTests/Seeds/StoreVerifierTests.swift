import Foundation
import GraphStore
import Testing
import TestScratch

/// `StoreVerifier` on real store files: a sound store passes every check; a store broken in
/// one way (made here with plain SQLite) fails exactly the check named for it; the store's
/// files are not changed by a byte.
@Suite struct StoreVerifierTests {
    static var modelPath: String {
        (Fixtures.exampleStore as NSString).deletingLastPathComponent + "/BookStore.xcdatamodeld"
    }

    /// The example store with prices raised above the model's minimum, so that it is sound.
    static func soundStore() throws -> String {
        try BrokenStores.changed(Fixtures.exampleStore, sql: "UPDATE ZBOOK SET ZPRICE = 20")
    }

    static func verify(_ path: String, expectations: [StoreExpectation] = []) throws -> [String: VerificationCheck] {
        let model = try ModelFile.load(path: modelPath, version: nil)
        let store = try PersistentStore(path: path, model: model)
        var byName: [String: VerificationCheck] = [:]
        for check in try StoreVerifier(store: store).verify(expectations: expectations) { byName[check.name] = check }
        return byName
    }

    static func failed(_ checks: [String: VerificationCheck]) -> [String] {
        checks.values.filter { $0.status == .failed }.map(\.name).sorted()
    }

    @Test func aSoundStorePassesEveryCheckAndIsNotChanged() throws {
        let path = try Self.soundStore()
        let before = BrokenStores.bytes(of: path)
        let checks = try Self.verify(path)
        #expect(Self.failed(checks) == [])
        #expect(checks["model.version"]?.status == .passed)
        #expect(checks["sqlite.page-size"]?.detail == "4096 bytes")
        #expect(checks["sqlite.journal-mode"]?.detail == "wal (write-ahead log)")
        #expect(BrokenStores.bytes(of: path) == before)
    }

    /// Each breakage, and the one check that must name it.
    static let breakages: [(check: String, sql: String)] = [
        ("layout.z-max", "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Book'"),
        ("layout.primary-keys", "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Page'"),
        ("layout.z-ent", "UPDATE ZBOOK SET Z_ENT = 9 WHERE Z_PK = 1"),
        ("layout.z-opt", "UPDATE ZBOOK SET Z_OPT = 0 WHERE Z_PK = 1"),
        ("layout.ordering", """
            INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK, Z_FOK_BOOK, ZTEXT) VALUES (1, 3, 1, 1, NULL, 'one');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Page'
            """),
        ("graph.to-one", "UPDATE ZBOOK SET ZCATEGORY = 99 WHERE Z_PK = 1"),
        ("model.version", "UPDATE Z_METADATA SET Z_PLIST = (SELECT Z_PLIST FROM Z_METADATA)"),
    ]

    @Test(arguments: 0..<7) func aBrokenStoreFailsTheCheckNamedForIt(_ index: Int) throws {
        let (check, sql) = Self.breakages[index]
        if check == "model.version" {
            // Written by a model whose Book differs: the hashes of another model's metadata.
            let path = try Self.soundStore()
            try Self.replaceBookHash(in: path)
            #expect(Self.failed(try Self.verify(path)) == ["model.version"])
            return
        }
        let path = try BrokenStores.changed(try Self.soundStore(), sql: sql)
        if check == "layout.primary-keys" {
            // A store without an entity's row does not open with the model at all: verify
            // reports that it could not open the store, naming the entity.
            #expect { try Self.verify(path) } throws: { "\($0)".contains("Page") }
            return
        }
        let failed = Self.failed(try Self.verify(path))
        // A dangling key is also what validation reports (133000), and Book.category's
        // inverse cascades (a book left behind by its category's delete); every other
        // breakage is caught by its own check alone.
        let expected = check == "graph.to-one" ? ["graph.delete-rules", "graph.to-one", "validation.objects"] : [check]
        #expect(failed == expected, "\(check)")
    }

    @Test func aWriteAheadLogWithRowsFailsShipping() throws {
        let path = try BrokenStores.withWriteAheadLog(from: try Self.soundStore(), alsoRunning: "UPDATE ZBOOK SET ZPRICE = 20")
        let before = BrokenStores.bytes(of: path)
        let checks = try Self.verify(path)
        #expect(Self.failed(checks) == ["shipping.wal"])
        #expect(checks["shipping.wal"]?.detail.contains("PRAGMA wal_checkpoint(TRUNCATE)") == true)
        #expect(BrokenStores.bytes(of: path) == before)
    }

    @Test func aHotJournalFailsShipping() throws {
        let path = try BrokenStores.withHotJournal(from: try Self.soundStore())
        let failed = Self.failed(try Self.verify(path))
        #expect(failed.contains("shipping.journal"))
    }

    @Test func aDamagedPageFailsIntegrity() throws {
        let path = try Self.soundStore()
        // Page 2 holds a table's b-tree; a byte in the middle of its cell area breaks it.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4096 + 8)
        try handle.write(contentsOf: Data([0xff, 0xff, 0xff, 0xff]))
        try handle.close()
        let model = try ModelFile.load(path: Self.modelPath, version: nil)
        let store = try PersistentStore(path: path, model: model)
        let checks = (try? StoreVerifier(store: store).verify()) ?? []
        #expect(checks.first { $0.name == "sqlite.integrity" }?.status == .failed)
    }

    @Test func anObjectOfAnAbstractEntityAndAMismatchedInverse() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Shape", abstract: true) { AttributeDescription("name", .string) }
            EntityDescription("Circle", parent: "Shape") {
                RelationshipDescription("twin", to: "Circle", inverse: "twin")
            }
        }
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: model)
        try SQLiteFile(path).execute("""
            INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'abstract');
            INSERT INTO ZSHAPE (Z_PK, Z_ENT, Z_OPT, ZTWIN) VALUES (2, 2, 1, 3), (3, 2, 1, NULL);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Shape'
            """)
        let store = try PersistentStore(path: path, model: model)
        var checks: [String: VerificationCheck] = [:]
        for check in try StoreVerifier(store: store).verify() { checks[check.name] = check }
        #expect(checks["graph.abstract"]?.status == .failed)
        #expect(checks["graph.inverses"]?.status == .failed)
        #expect(checks["graph.inverses"]?.detail.contains("Circle p2.twin → p3") == true)
    }

    @Test func orphanJoinRowsAndCascadeLeftovers() throws {
        let model = try ManagedObjectModel {
            EntityDescription("Tag") { RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true) }
            EntityDescription("Note") {
                RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true)
                RelationshipDescription("owner", to: "Folder", inverse: "notes")
            }
            EntityDescription("Folder") { RelationshipDescription("notes", to: "Note", inverse: "owner", toMany: true).deleteRule(.cascade) }
        }
        let path = try Fixtures.newStorePath()
        let created = try PersistentStore.create(at: path, model: model)
        let join = try #require(created.allMappings.flatMap(\.relationships).compactMap { r -> JoinTable? in
            if case .joinTable(let join) = r.storage { return join } else { return nil }
        }.first)
        try SQLiteFile(path).execute("""
            INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZOWNER) VALUES (1, 2, 1, 7);
            INSERT INTO \(join.table) (\(join.sourceColumn), \(join.destinationColumn)) VALUES (5, 1), (1, 5);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Note'
            """)
        let store = try PersistentStore(path: path, model: model)
        var checks: [String: VerificationCheck] = [:]
        for check in try StoreVerifier(store: store).verify() { checks[check.name] = check }
        #expect(checks["graph.join-rows"]?.status == .failed)
        #expect(checks["graph.delete-rules"]?.status == .failed)
        #expect(checks["graph.delete-rules"]?.detail.contains("Note p1.owner → Folder p7") == true)
    }

    @Test func expectationsHoldOrFail() throws {
        let path = try Self.soundStore()
        let expectations = try StoreExpectation.parse("""
            # release checklist
            count Book >= 3
            count Book where price > 100 == 0
            exists BookCategory where name == "Fiction"
            none Book where title == "Fiction"
            count Book > 3
            """, file: "release.checks")
        let checks = try Self.verify(path, expectations: expectations)
        #expect(checks["expect.2"]?.status == .passed)
        #expect(checks["expect.3"]?.status == .passed)
        #expect(checks["expect.4"]?.status == .passed)
        #expect(checks["expect.5"]?.status == .passed)
        #expect(checks["expect.6"]?.status == .failed)
        #expect(checks["expect.6"]?.detail == "count Book > 3 (3 objects)")
        // found is the count the line measured, failed or not: what a failing count needs.
        #expect(checks["expect.6"]?.found == 3)
        #expect(checks["expect.2"]?.found == 3)
        #expect(checks["expect.3"]?.found == 0)
        #expect(checks["expect.4"]?.found == 1)
        #expect(throws: StoreExpectationError.self) { try StoreExpectation.parse("count Book about 4", file: "x") }
    }

    static func replaceBookHash(in path: String) throws {
        let store = try PersistentStore(path: path)
        var properties = store.metadata.properties
        var hashes = store.metadata.versionHashes
        hashes["Book"] = Data(repeating: 7, count: 32)
        properties["NSStoreModelVersionHashes"] = hashes
        let plist = try PropertyListSerialization.data(fromPropertyList: properties, format: .binary, options: 0)
        try SQLiteFile(path).execute("UPDATE Z_METADATA SET Z_PLIST = X'\(plist.map { String(format: "%02x", $0) }.joined())'")
    }
}
