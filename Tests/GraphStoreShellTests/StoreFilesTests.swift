import Foundation
import Testing

@testable import GraphStoreShell
import TestScratch

/// `StoreFiles` knows the open store's file and its companions however a name is spelt.
@Suite struct StoreFilesTests {
    /// A directory with `data/Store.sqlite` (a few bytes: only names and inodes matter here).
    static func directory() throws -> String {
        let directory = try ScratchDirectory.make("store-files").path
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        try Data("not really a store".utf8).write(to: URL(fileURLWithPath: directory + "/data/Store.sqlite"))
        return directory
    }

    @Test func theStoreHoweverItIsSpelt() throws {
        let directory = try Self.directory()
        let store = directory + "/data/Store.sqlite"
        let files = StoreFiles(storePath: store)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.sqlite", withDestinationPath: "data/Store.sqlite")
        try FileManager.default.linkItem(atPath: store, toPath: directory + "/hard.sqlite")
        for spelling in [store, directory + "/data/./Store.sqlite", directory + "/data/../data/Store.sqlite", directory + "/link.sqlite", directory + "/hard.sqlite"] {
            #expect(files.role(of: spelling) == .store, "\(spelling)")
        }
        #expect(files.role(of: directory + "/data/Other.sqlite") == nil)
        #expect(files.role(of: directory + "/data/Store.sqlite.csv") == nil)
    }

    @Test func companionsThatDoNotExistYetAreKnownByName() throws {
        let directory = try Self.directory()
        let files = StoreFiles(storePath: directory + "/data/Store.sqlite")
        #expect(files.role(of: directory + "/data/Store.sqlite-wal") == .writeAheadLog)
        #expect(files.role(of: directory + "/data/../data/Store.sqlite-shm") == .sharedMemory)
        #expect(files.role(of: directory + "/data/Store.sqlite-journal") == .rollbackJournal)
        // Through a link to the directory, and through a link to the file not made yet:
        // writing through either would create the companion itself.
        try FileManager.default.createSymbolicLink(atPath: directory + "/alias", withDestinationPath: "data")
        #expect(files.role(of: directory + "/alias/Store.sqlite-wal") == .writeAheadLog)
        try FileManager.default.createSymbolicLink(atPath: directory + "/dangling", withDestinationPath: "data/Store.sqlite-wal")
        #expect(files.role(of: directory + "/dangling") == .writeAheadLog)
    }

    /// SQLite names the companions after the file a link points to, not after the link.
    @Test func aStoreOpenedThroughALinkHasItsCompanionsBesideTheTarget() throws {
        let directory = try Self.directory()
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.sqlite", withDestinationPath: "data/Store.sqlite")
        let files = StoreFiles(storePath: directory + "/link.sqlite")
        #expect(files.role(of: directory + "/data/Store.sqlite-wal") == .writeAheadLog)
        #expect(files.role(of: directory + "/link.sqlite-wal") == nil)
        #expect(files.role(of: directory + "/data/Store.sqlite") == .store)
    }

    @Test func existingCompanionsAreKnownByTheirInode() throws {
        let directory = try Self.directory()
        let files = StoreFiles(storePath: directory + "/data/Store.sqlite")
        try Data().write(to: URL(fileURLWithPath: directory + "/data/Store.sqlite-wal"))
        try FileManager.default.linkItem(atPath: directory + "/data/Store.sqlite-wal", toPath: directory + "/elsewhere")
        #expect(files.role(of: directory + "/elsewhere") == .writeAheadLog)
    }
}
