import Foundation
@testable import GraphStore
import Testing
import TestScratch

/// How a read-only store with a log is read: in place when no other connection uses the
/// log, from a private copy when one does or a journal must be rolled back; never a byte
/// written beside the store either way.
@Suite struct ReadOnlyAccessTests {
    private func access(_ path: String) throws -> ReadOnlyAccess {
        ReadOnlyAccess(try StoreFile.open(try StoreFile.resolve(path), path: path, forWriting: false))
    }

    private func titles(_ store: PersistentStore) throws -> [String] {
        try ManagedObjectContext(store: store).fetch("Book").compactMap { try $0.get("title", as: String.self) }
    }

    /// The descriptors of this process open on the file at `path`.
    private func descriptors(on path: String) throws -> Int {
        let real = try StoreFile.resolve(path)
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == real }.count
    }

    @Test func aLogNoConnectionUsesIsReadInPlace() throws {
        // The -wal and -shm as a process that ended left them.
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        let before = BrokenStores.bytes(of: path)
        #expect(before["-shm"] != nil)
        #expect(try access(path) == .inPlace)
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        #expect(try titles(store).contains(BrokenStores.loggedTitle))
        #expect(store.privateCopy == nil)
        #expect(BrokenStores.bytes(of: path) == before)
    }

    /// A store copied off a device with its log but not its index: read in place, and no
    /// `-shm` is made beside it.
    @Test func aLogWithoutItsIndexIsReadInPlaceAndNoIndexIsMade() throws {
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        try FileManager.default.removeItem(atPath: path + "-shm")
        let before = BrokenStores.bytes(of: path)
        #expect(try access(path) == .inPlace)
        do {
            let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
            #expect(try titles(store).contains(BrokenStores.loggedTitle))
            #expect(store.privateCopy == nil)
            #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        }
        #expect(BrokenStores.bytes(of: path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    /// A log with no frame SQLite accepts (its header damaged): a connection closing would
    /// find nothing to fold in and delete it, were the log open for writing (`mode=ro` opens
    /// it so whenever the process may write it). Read in place, it stays, byte for byte.
    @Test func aDamagedLogReadInPlaceIsLeftAsItWas() throws {
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        try FileManager.default.removeItem(atPath: path + "-shm")
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: path + "-wal"))
        try log.write(contentsOf: Data(repeating: 0x5A, count: 32))
        try log.close()
        let before = BrokenStores.bytes(of: path)
        #expect(try access(path) == .inPlace)
        do {
            let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
            #expect(store.privateCopy == nil)
            // The log is ignored: the rows are the file's own.
            #expect(try !titles(store).contains(BrokenStores.loggedTitle))
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(BrokenStores.bytes(of: path) == before)
    }

    /// A GraphStore writer of this process has the store open: its log changes (and its
    /// checkpoints fold the log into the file under a reader that takes no part in SQLite's
    /// locking), so it is read from a snapshot.
    @Test func aStoreAWriterHasOpenIsReadFromAPrivateCopy() throws {
        let path = try Fixtures.newStorePath()
        let writer = try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: writer)
        try context.insert("Book").set("title", "In the log")
        try context.save()
        #expect(try access(path) == .privateCopy)
        let reader = try PersistentStore(path: path)
        #expect(reader.privateCopy != nil)
        #expect(try titles(reader) == ["In the log"])
        _ = writer
    }

    /// Read in place, the store is read as it was when opened; once another program writes
    /// it, a statement refuses to run (SQLITE_BUSY_SNAPSHOT, saying to open it again) rather
    /// than read through a log index that no longer matches the files.
    @Test func aStoreWrittenAfterAnInPlaceOpenRefusesToBeReadOn() throws {
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        #expect(store.privateCopy == nil)
        let before = try titles(store)
        #expect(before.contains(BrokenStores.loggedTitle))
        let writer = try SQLiteFile(path)
        try writer.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (100, 1, 1, 'Written afterwards')")
        do {
            _ = try titles(store)
            Issue.record("a fetch ran on a store that changed under it")
        } catch let error as SQLiteError {
            #expect(error.extendedCode == 517)
            #expect(error.message.contains("changed on disk since it was opened read-only"), "\(error.message)")
        }
        let reopened = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        #expect(try titles(reopened).contains("Written afterwards"))
        _ = writer
    }

    @Test func aHotJournalIsRolledBackInAPrivateCopy() throws {
        let path = try BrokenStores.withHotJournal(from: Fixtures.exampleStore)
        let before = BrokenStores.bytes(of: path)
        #expect(try access(path) == .privateCopy)
        let store = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        #expect(store.privateCopy != nil)
        #expect(try store.count(of: store.mapping(for: "Book")) == 3)
        #expect(BrokenStores.bytes(of: path) == before)
    }

    @Test func aFileWithoutALogIsReadImmutable() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        #expect(try access(path) == .immutable)
    }

    /// A reader in place closes its descriptors without SQLite's wait for the process's
    /// other locks on the file; released while a writer of this process has the file open,
    /// it stays open until that writer goes, so the writer's locks are not dropped.
    @Test func anInPlaceReaderReleasedBeforeAWriterStaysOpenUntilTheWriterGoes() throws {
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        var reader: PersistentStore? = try PersistentStore(path: path, model: Fixtures.bookStoreModel())
        #expect(reader?.privateCopy == nil)
        var writer: PersistentStore? = try PersistentStore(path: path, model: Fixtures.bookStoreModel(), readOnly: false)
        #expect(try titles(try #require(writer)).contains(BrokenStores.loggedTitle))
        let bothOpen = try descriptors(on: path)
        reader = nil
        #expect(try descriptors(on: path) == bothOpen)
        writer = nil
        #expect(try descriptors(on: path) == 0)
        _ = (reader, writer)
    }

    /// A migration source read in place is attached from a private copy (`ATTACH` cannot
    /// read a log in place), which goes when the copy is done.
    @Test func attachingAFileWithALogReadsAPrivateCopy() throws {
        let path = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        let file = try StoreFile.open(try StoreFile.resolve(path), path: path, forWriting: false)
        let (uri, copy) = try StoreFile.attachableURI(of: file, path: path)
        let made = try #require(copy)
        #expect(uri.hasPrefix("file:"))
        #expect(FileManager.default.fileExists(atPath: made))
        StoreFile.removePrivateCopy(made)
        #expect(!FileManager.default.fileExists(atPath: made))
    }
}
