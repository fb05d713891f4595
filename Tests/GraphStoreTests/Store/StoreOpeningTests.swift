import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// Opening: clear errors for files that are not Core Data stores, and not one byte changed.
@Suite struct StoreOpeningTests {
    @Test func missingFile() throws {
        let path = try Fixtures.newStorePath("absent.sqlite")
        #expect(throws: StoreError.fileNotFound(path: path)) { _ = try PersistentStore(path: path) }
    }

    @Test func fileThatIsNotSQLite() throws {
        let path = try Fixtures.newStorePath("notes.txt")
        try Data("just some text, long enough to look like a file of some size".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path, reason: "no SQLite header")) { _ = try PersistentStore(path: path) }
    }

    @Test func truncatedStore() throws {
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: try Fixtures.layoutModel())
        let context = ManagedObjectContext(store: store)
        for i in 0..<500 { try context.insert("Page").set("number", i % 100) }
        try context.save()
        try store.checkpoint()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = try Fixtures.newStorePath("truncated.sqlite")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: StoreError.truncated(path: truncated, expectedSize: data.count, actualSize: data.count / 2)) {
            _ = try PersistentStore(path: truncated)
        }
    }

    @Test func plainSQLiteDatabaseNamesWhatIsMissing() throws {
        let path = try Fixtures.newStorePath("plain.sqlite")
        try Connection(path: path, mode: .create).execute("CREATE TABLE people (name TEXT)")
        #expect(throws: StoreError.notCoreData(path: path, missing: ["Z_PRIMARYKEY", "Z_METADATA"])) {
            _ = try PersistentStore(path: path)
        }
    }

    @Test func notCoreDataCorpusFilesAreRefused() throws {
        guard let corpus = try Fixtures.requireCorpus("notCoreDataCorpusFilesAreRefused") else { return }
        let folder = corpus.appendingPathComponent("stores/_not_coredata")
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            .map { folder.appendingPathComponent($0).path }
            .filter(Fixtures.isRegularFile)
        #expect(files.count >= 5)
        for file in files {
            let before = Fixtures.fingerprint(file)
            do {
                _ = try PersistentStore(path: file)
                Issue.record("\(file) opened as a Core Data store")
            } catch {
                switch error {
                case .notCoreData(_, let missing): #expect(!missing.isEmpty)
                case .notADatabase: break
                default: Issue.record("\(file): unexpected \(error)")
                }
                #expect(error.description.contains(file))
            }
            #expect(Fixtures.fingerprint(file) == before, "\(file) changed")
        }
    }

    @Test func openingReadOnlyChangesNoByteEvenWithAWriteAheadLog() throws {
        let path = try Fixtures.newStorePath()
        let model = try Fixtures.bookStoreModel()
        let writer = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: writer)
        try context.insert("Book").set("title", "In the log")
        try context.save()
        // The writer stays open, so the rows live only in the -wal file.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let before = Fixtures.fingerprint(path)
        do {
            let reader = try PersistentStore(path: path)
            let titles = try ManagedObjectContext(store: reader).fetch("Book").map { try $0.get("title", as: String.self) }
            #expect(titles == ["In the log"])
        }
        #expect(Fixtures.fingerprint(path) == before)
        _ = writer
    }

    /// A store read through a private copy (it has a log) removes the copy when it is
    /// released; copies still recorded when the process ends are removed then.
    @Test func privateCopiesAreRemoved() throws {
        let path = try Fixtures.newStorePath()
        let writer = try PersistentStore.create(at: path, model: try Fixtures.bookStoreModel())
        let context = ManagedObjectContext(store: writer)
        try context.insert("Book").set("title", "In the log")
        try context.save()
        var released = ""
        do {
            let reader = try PersistentStore(path: path)
            released = try #require(reader.privateCopy)
            #expect(FileManager.default.fileExists(atPath: released))
        }
        #expect(!FileManager.default.fileExists(atPath: released))
        // What happens at exit, on a registry of this test's own (the process's one holds
        // other tests' copies, in use).
        let copies = PrivateCopies()
        let directory = try Fixtures.temporaryDirectory().path
        copies.add(directory: directory, file: "store.sqlite")
        copies.removeRemaining()
        #expect(!FileManager.default.fileExists(atPath: directory))
        _ = writer
    }

    @Test func openingCorpusStoresChangesNoByte() throws {
        guard let corpus = try Fixtures.requireCorpus("openingCorpusStoresChangesNoByte") else { return }
        let folder = corpus.appendingPathComponent("stores")
        let stores = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasPrefix("_not_coredata") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            .map { folder.appendingPathComponent($0).path }
            .filter(Fixtures.isRegularFile)
        #expect(stores.count >= 20)
        for path in stores {
            let before = Fixtures.fingerprint(path)
            do {
                let store = try PersistentStore(path: path)
                for mapping in store.allMappings { _ = try store.count(of: mapping) }
            }
            #expect(Fixtures.fingerprint(path) == before, "\(path) changed")
        }
    }
}

/// What is not a regular file is refused before SQLite (or a `read`) ever opens it, and
/// a damaged file says what SQLite's own check finds.
@Suite struct StoreFileKindTests {
    @Test(.timeLimit(.minutes(10))) func aFIFOIsRefusedWithoutBeingOpened() throws {
        let path = try Fixtures.newStorePath("pipe.sqlite")
        #expect(mkfifo(path, 0o600) == 0)
        // Something to read, so that an open and a read of the FIFO would return (with
        // bytes that are no SQLite header) rather than wait for a writer.
        let writer = open(path, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        let junk = [UInt8](repeating: 0x41, count: 200)
        #expect(write(writer, junk, junk.count) == junk.count)
        #expect(throws: StoreError.notARegularFile(path: path, kind: "a FIFO")) { _ = try PersistentStore(path: path) }
        #expect(throws: StoreError.notARegularFile(path: path, kind: "a FIFO")) { _ = try PersistentStore(path: path, readOnly: false) }
        #expect(StoreError.notARegularFile(path: path, kind: "a FIFO").description == "\(path) is a FIFO, not a store file")
        // Nothing was read from it.
        var buffer = [UInt8](repeating: 0, count: 300)
        #expect(read(writer, &buffer, buffer.count) == junk.count)
    }

    @Test func aLinkToAFIFOIsRefusedAsAFIFO() throws {
        let folder = try Fixtures.temporaryDirectory()
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
        #expect(throws: StoreError.notARegularFile(path: link, kind: "a FIFO")) { _ = try PersistentStore(path: link) }
    }

    @Test func aDirectoryAndADeviceAreRefused() throws {
        let folder = try Fixtures.temporaryDirectory().path
        #expect(throws: StoreError.notARegularFile(path: folder, kind: "a directory")) { _ = try PersistentStore(path: folder) }
        #expect(throws: StoreError.notARegularFile(path: "/dev/null", kind: "a character device")) { _ = try PersistentStore(path: "/dev/null") }
    }

    @Test func aDamagedPageIsReportedWithQuickChecksFinding() throws {
        let path = try BrokenStores.copy(Fixtures.exampleStore)
        let root = try Connection(path: path, mode: .readOnly).scalar("SELECT rootpage FROM sqlite_master WHERE name = 'Z_PRIMARYKEY'")
        guard case .integer(let page)? = root else {
            Issue.record("no root page for Z_PRIMARYKEY")
            return
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(page - 1) * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 16))
        try handle.close()
        #expect(throws: StoreError.damaged(path: path, finding: "Page \(page): btreeInitPage() returns error code 11")) {
            _ = try PersistentStore(path: path)
        }
    }
}
