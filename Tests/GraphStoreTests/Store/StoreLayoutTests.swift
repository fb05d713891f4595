import Foundation
import Testing
@testable import GraphStore

/// A store created here has the layout the format notes describe.
@Suite struct StoreLayoutTests {
    /// The DDL of every table and index. The file is opened immutable: a plain read-only
    /// connection to a WAL store (the corpus's seed is one) still writes its `-shm`.
    private func ddl(_ path: String) throws -> [String: String] {
        let connection = try Connection(path: ReadOnlyAccess.immutable.uri(path), mode: .readOnly)
        var result: [String: String] = [:]
        for row in try connection.rows("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL") {
            result[row[0].description] = row[1].description
        }
        return result
    }

    @Test func bookStoreDDLIsByteForByteCoreData() throws {
        // The exact DDL Core Data wrote for this model in the Apress BookStore seed store.
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
        let sql = try ddl(path)
        #expect(sql["ZBOOK"] == "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZPRICE FLOAT, ZTITLE VARCHAR )")
        #expect(sql["ZBOOKCATEGORY"] == "CREATE TABLE ZBOOKCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )")
        #expect(sql["ZPAGE"] == "CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOK INTEGER, Z_FOK_BOOK INTEGER, ZTEXT VARCHAR )")
        #expect(sql["ZBOOK_ZCATEGORY_INDEX"] == "CREATE INDEX ZBOOK_ZCATEGORY_INDEX ON ZBOOK (ZCATEGORY)")
        #expect(sql["ZPAGE_ZBOOK_INDEX"] == "CREATE INDEX ZPAGE_ZBOOK_INDEX ON ZPAGE (ZBOOK)")
        #expect(sql["Z_PRIMARYKEY"] == "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        #expect(sql["Z_METADATA"] == "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    }

    @Test func bookStoreDDLMatchesTheCorpusStore() throws {
        guard let corpus = try Fixtures.requireCorpus("bookStoreDDLMatchesTheCorpusStore") else { return }
        let seed = corpus.appendingPathComponent("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite").path
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
        let ours = try ddl(path)
        let theirs = try ddl(seed)
        #expect(ours == theirs)
    }

    @Test func bookStoreVersionHashesMatchTheCorpusStore() throws {
        guard let corpus = try Fixtures.requireCorpus("bookStoreVersionHashesMatchTheCorpusStore") else { return }
        let seed = try PersistentStore(path: corpus.appendingPathComponent("stores/Apress__pro-ios-persistence/Ch04/BookStore/BookStore/seed.sqlite").path).metadata
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
        let ours = try PersistentStore(path: path, model: Fixtures.bookStoreModel()).metadata
        #expect(seed.versionHashes.count == 3)
        #expect(ours.versionHashes == seed.versionHashes)
        #expect((ours.properties["NSStoreModelVersionHashesVersion"] as? NSNumber) == (seed.properties["NSStoreModelVersionHashesVersion"] as? NSNumber))
        // Framework 519 wrote neither digest nor checksum; ours follow from the same hashes.
        #expect(seed.properties["NSStoreModelVersionHashesDigest"] == nil && seed.properties["NSStoreModelVersionChecksumKey"] == nil)
        #expect(ours.properties["NSStoreModelVersionHashesDigest"] as? String == ManagedObjectModel.versionHashesDigest(seed.versionHashes))
        #expect(ours.properties["NSStoreModelVersionChecksumKey"] as? String == ManagedObjectModel.versionChecksum(seed.versionHashes))
    }

    @Test func numberingInheritanceJoinTablesAndIndexes() throws {
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: Fixtures.layoutModel())
        // Depth-first, roots sorted case-insensitively: Book, GraphicNovel, feedback, Page, Writer, Author.
        let names = store.primaryKeyEntries.values.sorted { $0.number < $1.number }.map { "\($0.number):\($0.name):\($0.superNumber)" }
        #expect(names == ["1:Book:0", "2:GraphicNovel:1", "3:feedback:0", "4:Page:0", "5:Writer:0", "6:Author:5"])
        let sql = try ddl(path)
        // Writer.favourite points at Book, which has a sub-entity: a Z1_ companion column.
        #expect(sql["ZWRITER"]?.contains("ZFAVOURITE INTEGER, Z1_FAVOURITE INTEGER") == true)
        #expect(sql["ZWRITER_Z_ENT_INDEX"] == "CREATE INDEX ZWRITER_Z_ENT_INDEX ON ZWRITER (Z_ENT)")
        #expect(sql["ZBOOK_Z_ENT_INDEX"] == "CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT)")
        #expect(sql["ZPAGE"]?.contains("ZBOOK INTEGER, Z1_BOOK INTEGER, Z_FOK_BOOK INTEGER") == true)
        // Many-to-many Book(1).authors <-> Author(6).books: named by the lower number.
        #expect(sql["Z_1AUTHORS"] == "CREATE TABLE Z_1AUTHORS ( Z_1BOOKS INTEGER, Z_6AUTHORS INTEGER, PRIMARY KEY (Z_1BOOKS, Z_6AUTHORS) )")
        #expect(sql["Z_1AUTHORS_Z_6AUTHORS_INDEX"] == "CREATE INDEX Z_1AUTHORS_Z_6AUTHORS_INDEX ON Z_1AUTHORS (Z_6AUTHORS, Z_1BOOKS)")
        #expect(sql["Z_Book_byTitle"] == "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)")
        #expect(sql["Z_Author_UNIQUE_alias"] == "CREATE UNIQUE INDEX Z_Author_UNIQUE_alias ON ZWRITER (ZALIAS COLLATE BINARY ASC)")
        // Column types per attribute type.
        let feedback = try #require(sql["ZFEEDBACK"])
        for part in ["ZINT16 INTEGER", "ZBOOLEAN INTEGER", "ZDATE TIMESTAMP", "ZDOUBLE FLOAT", "ZFLOAT FLOAT", "ZDECIMAL DECIMAL",
                     "ZSTRING VARCHAR", "ZURI VARCHAR", "ZBINARY BLOB", "ZUUID BLOB", "ZTRANSFORMABLE BLOB"] {
            #expect(feedback.contains(part), "\(part) missing from \(feedback)")
        }
        #expect(feedback.hasPrefix("CREATE TABLE ZFEEDBACK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOLEAN INTEGER, ZINT16 INTEGER, ZINT32 INTEGER, ZINT64 INTEGER, ZDATE TIMESTAMP, ZDOUBLE FLOAT, ZFLOAT FLOAT, ZDECIMAL DECIMAL,"))
    }

    @Test func metadataCarriesCoreDataKeys() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.layoutModel()
        let store = try PersistentStore.create(at: path, model: model)
        let metadata = store.metadata
        #expect(Set(metadata.keys) == [
            "NSStoreType", "NSPersistenceFrameworkVersion", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
            "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest", "NSStoreModelVersionChecksumKey", "_NSAutoVacuumLevel",
        ])
        #expect(metadata.storeType == "SQLite")
        #expect((metadata.properties["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(metadata.versionIdentifiers == [""])
        #expect(metadata.frameworkVersion == StoreMetadata.writtenFrameworkVersion)
        #expect(Set(metadata.versionHashes.keys) == Set(model.entities.map(\.name)))
        #expect(metadata.versionHashes.values.allSatisfy { $0.count == 32 })
        #expect(metadata.properties["NSStoreModelVersionHashesDigest"] as? String == ManagedObjectModel.versionHashesDigest(metadata.versionHashes))
        #expect(UUID(uuidString: metadata.uuid) != nil)
        // The plist is a binary property list.
        let connection = try Connection(path: path, mode: .readOnly)
        guard case .blob(let plist)? = try connection.scalar("SELECT Z_PLIST FROM Z_METADATA") else {
            Issue.record("Z_PLIST is not a blob")
            return
        }
        #expect(plist.prefix(8) == Data("bplist00".utf8))
        #expect(try connection.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try connection.scalar("PRAGMA auto_vacuum") == .integer(2))
    }

    @Test func versionHashesAreDeterministicAndSchemaSensitive() throws {
        let a = try Fixtures.bookStoreModel().entityVersionHashes
        let b = try Fixtures.bookStoreModel().entityVersionHashes
        #expect(a == b)
        var entities = try Fixtures.bookStoreModel().entities
        entities[1].attributes.append(AttributeDescription("isbn", .string))
        let changed = try ManagedObjectModel(entities: entities).entityVersionHashes
        #expect(changed["Book"] != a["Book"])
        #expect(changed["Page"] == a["Page"])
    }

    @Test func digestAndChecksumMatchRealStores() throws {
        guard let corpus = try Fixtures.requireCorpus("digestAndChecksumMatchRealStores") else { return }
        var checked = 0
        let stores = FileManager.default.enumerator(atPath: corpus.appendingPathComponent("stores").path)?.compactMap { $0 as? String } ?? []
        for relative in stores where relative.hasSuffix(".wiredatabase") || relative.hasSuffix("Bookmarks_V5.sqlite") {
            let store = try PersistentStore(path: corpus.appendingPathComponent("stores/" + relative).path)
            let hashes = store.metadata.versionHashes
            if let digest = store.metadata.properties["NSStoreModelVersionHashesDigest"] as? String {
                #expect(ManagedObjectModel.versionHashesDigest(hashes) == digest, "\(relative)")
                checked += 1
            }
            if let checksum = store.metadata.properties["NSStoreModelVersionChecksumKey"] as? String {
                #expect(ManagedObjectModel.versionChecksum(hashes) == checksum, "\(relative)")
            }
        }
        #expect(checked > 0)
    }
}
