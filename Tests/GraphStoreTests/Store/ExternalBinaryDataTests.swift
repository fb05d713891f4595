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

    /// A new store with one item whose photo is kept in an external data file, checkpointed;
    /// its path and the photo.
    private func storeWithOneExternalValue(_ name: String) throws -> (path: String, photo: Data) {
        let path = try Fixtures.newStorePath(name)
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model()))
        let large = Data(repeating: 9, count: PersistentStore.externalDataThreshold + 10)
        try context.insert("Item").set("photo", large)
        try context.save()
        try context.store.checkpoint()
        return (path, large)
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

    /// What sits in an external data file's place that is not a regular file of the support
    /// folder is refused before a byte is read, with a sentence, and `validate`'s storage
    /// audit names each: a link to a secret, a device that never ends, a FIFO that would
    /// wait, a directory, a file larger than the limit.
    @Test func onlyRegularFilesOfTheSupportFolderAreRead() throws {
        let (path, _) = try storeWithOneExternalValue("Photos.sqlite")
        let folder = StoreSupportFolder(storePath: path)
        let name = try #require(try folder.externalDataFileNames().first)
        let file = folder.externalDataFile(named: name)
        let secret = try Fixtures.newStorePath("secret.txt")
        try Data("root:secret".utf8).write(to: URL(fileURLWithPath: secret))
        func replace(_ make: () throws -> Void) throws {
            try FileManager.default.removeItem(atPath: file)
            try make()
        }
        func readProblem() throws -> (StoreError?, [StorageAnomaly]) {
            let store = try PersistentStore(path: path, model: model())
            let object = try #require(try ManagedObjectContext(store: store).fetch("Item").first)
            var error: StoreError?
            do { _ = try object.value(forKey: "photo") } catch let thrown as StoreError { error = thrown }
            return (error, try store.storageAnomalies())
        }
        func expectRefused(_ problem: ExternalDataProblem) throws {
            let (error, anomalies) = try readProblem()
            #expect(error == .externalDataUnreadable(entity: "Item", primaryKey: 1, key: "photo", file: file, problem: problem))
            #expect(anomalies.map(\.kind) == [.unreadableExternalFile])
            #expect(anomalies.first?.message == "ZITEM.ZPHOTO: external data file \(name) \(problem), in \(folder.externalDataPath); the value is not read")
        }
        try replace { try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: secret) }
        try expectRefused(.symbolicLink)
        #expect(String(describing: try readProblem().0).contains("root:secret") == false)
        try replace { try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero") }
        try expectRefused(.symbolicLink)
        try replace { #expect(mkfifo(file, 0o600) == 0) }
        try expectRefused(.notARegularFile(kind: "a FIFO"))
        try replace { try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false) }
        try expectRefused(.notARegularFile(kind: "a directory"))
        // Sparse: claims more than the limit without taking the disk.
        try replace {
            let descriptor = open(file, O_WRONLY | O_CREAT, 0o644)
            #expect(ftruncate(descriptor, off_t(PersistentStore.externalDataSizeLimit) + 1) == 0)
            close(descriptor)
        }
        try expectRefused(.tooLarge(size: Int64(PersistentStore.externalDataSizeLimit) + 1, limit: Int64(PersistentStore.externalDataSizeLimit)))
        // The folder itself replaced by a link to another folder holding a file of the name.
        try FileManager.default.removeItem(atPath: file)
        let elsewhere = try Fixtures.newStorePath("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try Data("root:secret".utf8).write(to: URL(fileURLWithPath: elsewhere + "/" + name))
        try FileManager.default.removeItem(atPath: folder.externalDataPath)
        try FileManager.default.createSymbolicLink(atPath: folder.externalDataPath, withDestinationPath: elsewhere)
        try expectRefused(.folderNotAFolder(path: folder.externalDataPath))
        // Gone: missing, as before.
        try FileManager.default.removeItem(atPath: folder.externalDataPath)
        let (missing, anomalies) = try readProblem()
        #expect(missing == .externalDataMissing(entity: "Item", primaryKey: 1, key: "photo", file: file))
        #expect(anomalies.map(\.kind) == [.missingExternalFile])
    }

    /// A value above the threshold goes to a file named by a new UUID, referenced from the
    /// row as Core Data writes it; replacing or deleting it removes the file after COMMIT.
    @Test func largeValuesAreWrittenToFilesAndRemovedWhenReplacedOrDeleted() throws {
        let path = try Fixtures.newStorePath("Photos.sqlite")
        let large = Data((0..<(PersistentStore.externalDataThreshold + 1)).map { UInt8(truncatingIfNeeded: $0) })
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model()))
        let item = try context.insert("Item")
        try item.set("photo", large)
        try context.insert("Item").set("photo", Data(count: PersistentStore.externalDataThreshold))
        try context.save()
        let folder = StoreSupportFolder(storePath: path)
        let files = try folder.externalDataFileNames()
        #expect(files.count == 1)
        let name = try #require(files.first)
        #expect(UUID(uuidString: name)?.uuidString == name)
        #expect(FileManager.default.contents(atPath: folder.externalDataFile(named: name)) == large)
        let raw = try Connection(path: path, mode: .readOnly)
        #expect(try raw.rows("SELECT hex(ZPHOTO), length(ZPHOTO) FROM ZITEM ORDER BY Z_PK").first == [
            .text("02" + Data(name.utf8).map { String(format: "%02X", $0) }.joined() + "00"), .integer(38),
        ])
        #expect(try raw.scalar("SELECT length(ZPHOTO) FROM ZITEM WHERE Z_PK = 2") == .integer(Int64(PersistentStore.externalDataThreshold + 1)))
        // Read back by a fresh store: the file's bytes.
        let fresh = ManagedObjectContext(store: try PersistentStore(path: path, model: model(), readOnly: false))
        let read = try fresh.existingObject(entity: "Item", primaryKey: 1)
        #expect(try read.get("photo", as: Data.self) == large)
        // Changing another value keeps the reference and the file.
        try read.set("name", "renamed")
        try fresh.save()
        #expect(try folder.externalDataFileNames() == [name])
        // A new value: a new file, the old one gone.
        var larger = large
        larger.append(7)
        try read.set("photo", larger)
        try fresh.save()
        let replaced = try folder.externalDataFileNames()
        #expect(replaced.count == 1 && replaced != [name])
        #expect(try ManagedObjectContext(store: try PersistentStore(path: path, model: model())).existingObject(entity: "Item", primaryKey: 1).get("photo", as: Data.self) == larger)
        try fresh.delete(read)
        try fresh.save()
        #expect(try folder.externalDataFileNames() == [])
    }

    /// A copy of a store carries its support folder: made under a temporary name, then
    /// renamed beside the copy; one already there belongs to another store and is refused.
    @Test func theSupportFolderIsCopiedBesideACopyOfTheStore() throws {
        let (path, large) = try storeWithOneExternalValue("Photos.sqlite")
        let copy = try Fixtures.newStorePath("Backup.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let copied = try #require(try StoreSupportFolder(storePath: path).copy(besideStoreAt: copy))
        #expect(copied.path == (copy as NSString).deletingLastPathComponent + "/.Backup_SUPPORT")
        let object = try #require(try ManagedObjectContext(store: try PersistentStore(path: copy, model: model())).fetch("Item").first)
        #expect(try object.get("photo", as: Data.self) == large)
        #expect(throws: StoreError.alreadyExists(path: copied.path)) { try StoreSupportFolder(storePath: path).copy(besideStoreAt: copy) }
        #expect(try StoreSupportFolder(storePath: copy + ".none").copy(besideStoreAt: path + ".other") == nil)
    }

    /// A seed installed by ``SeedInstaller`` carries its external data files: its support
    /// folder is copied beside the new store before the store appears, and a folder an
    /// install cut short left there (no store beside it) is replaced.
    @Test func anInstalledSeedCarriesItsExternalDataFiles() throws {
        let (seed, large) = try storeWithOneExternalValue("Seed.sqlite")
        let target = try Fixtures.newStorePath("App.sqlite")
        let leftover = StoreSupportFolder(storePath: target)
        try FileManager.default.createDirectory(atPath: leftover.path + "/_EXTERNAL_DATA", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: leftover.path + "/_EXTERNAL_DATA/partial", contents: Data([1])))
        let installer = SeedInstaller(storePath: target, seedPath: seed, seedVersion: "1", updates: [], model: try model())
        #expect(try installer.install() == .copiedSeed(version: "1"))
        #expect(try leftover.externalDataFileNames() == StoreSupportFolder(storePath: seed).externalDataFileNames())
        let installed = try #require(try ManagedObjectContext(store: try PersistentStore(path: target, model: model())).fetch("Item").first)
        #expect(try installed.get("photo", as: Data.self) == large)
    }

    /// A save that fails after writing a new file and replacing a reference (a conflict on
    /// a later row) rolls back: the old file is still there for the row that still names
    /// it, and the new file, which no row names, is gone.
    @Test func aSaveThatRollsBackKeepsTheOldFilesAndRemovesTheNewOnes() throws {
        let path = try Fixtures.newStorePath("Photos.sqlite")
        let size = PersistentStore.externalDataThreshold + 1
        do {
            let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model()))
            try context.insert("Item").set("photo", Data(repeating: 1, count: size))
            try context.insert("Item").set("photo", Data(repeating: 2, count: size))
            try context.save()
        }
        let folder = StoreSupportFolder(storePath: path)
        let before = try folder.externalDataFileNames()
        #expect(before.count == 2)
        let mine = ManagedObjectContext(store: try PersistentStore(path: path, model: model(), readOnly: false))
        let first = try mine.existingObject(entity: "Item", primaryKey: 1)
        let second = try mine.existingObject(entity: "Item", primaryKey: 2)
        try first.set("photo", Data(repeating: 3, count: size))
        try second.set("name", "mine")
        let theirs = ManagedObjectContext(store: try PersistentStore(path: path, model: model(), readOnly: false))
        try theirs.existingObject(entity: "Item", primaryKey: 2).set("name", "theirs")
        try theirs.save()
        #expect(throws: StoreError.self) { try mine.save() }
        #expect(try folder.externalDataFileNames() == before)
        let fresh = ManagedObjectContext(store: try PersistentStore(path: path, model: model()))
        #expect(try fresh.existingObject(entity: "Item", primaryKey: 1).get("photo", as: Data.self) == Data(repeating: 1, count: size))
    }
}
