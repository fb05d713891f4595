import Foundation
import Testing
import TestScratch
@testable import GraphStore

/// A store opened through a symbolic link reads the log beside the link's target: its
/// committed rows are seen, its rolled-back ones are not, and read-only still changes no
/// byte of the real files.
@Suite struct SymbolicLinkTests {
    /// A link to `target` in a fresh directory elsewhere.
    private func link(to target: String, name: String = "link.sqlite") throws -> String {
        let link = try Fixtures.temporaryDirectory().appendingPathComponent(name).path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        return link
    }

    /// The number of rows of each entity the store shows.
    private func counts(_ store: PersistentStore) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for mapping in store.allMappings { counts[mapping.name] = try store.count(of: mapping) }
        return counts
    }

    private func titles(_ store: PersistentStore) throws -> [String] {
        try ManagedObjectContext(store: store).fetch("Book").map { try $0.get("title", as: String.self) ?? "" }.sorted()
    }

    @Test func corpusStoreWithALogReadsTheSameThroughALink() throws {
        guard let corpus = try Fixtures.requireCorpus("corpusStoreWithALogReadsTheSameThroughALink") else { return }
        let real = corpus.appendingPathComponent("stores/sergd2005__ResourcesManager/default.store").path
        let link = try link(to: real, name: "default.store")
        let before = BrokenStores.bytes(of: real)
        let direct = try counts(PersistentStore(path: real))
        let linked = try PersistentStore(path: link)
        #expect(try counts(linked) == direct)
        #expect(direct["Item"] == 7)
        #expect(linked.path == link)
        // The corpus itself may be reached through a link (CI's ../shared).
        #expect(linked.resolvedPath == URL(fileURLWithPath: real).resolvingSymlinksInPath().path)
        #expect(BrokenStores.bytes(of: real) == before)
    }

    @Test func aChainOfRelativeLinksReadsTheLogAndChangesNoByte() throws {
        let real = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        // link2 → ../<dir>/link1 → the store: relative, and a chain.
        let first = try link(to: real, name: "link1.sqlite")
        let folder = try Fixtures.temporaryDirectory()
        let relative = "../" + URL(fileURLWithPath: first).deletingLastPathComponent().lastPathComponent + "/link1.sqlite"
        let second = folder.appendingPathComponent("link2.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: relative)
        let before = BrokenStores.bytes(of: real)
        #expect(before["-wal"] != nil)
        let store = try PersistentStore(path: second, model: Fixtures.bookStoreModel())
        #expect(try titles(store).contains(BrokenStores.loggedTitle))
        #expect(store.privateCopy == nil)
        #expect(store.resolvedPath == (try StoreFile.resolve(real)))
        #expect(BrokenStores.bytes(of: real) == before)
        #expect(!FileManager.default.fileExists(atPath: second + "-shm"))
    }

    @Test func aHotJournalBesideTheTargetIsRolledBackInTheCopy() throws {
        let real = try BrokenStores.withHotJournal(from: Fixtures.exampleStore)
        let link = try link(to: real)
        let before = BrokenStores.bytes(of: real)
        let store = try PersistentStore(path: link, model: Fixtures.bookStoreModel())
        #expect(try store.count(of: store.mapping(for: "Book")) == 3)
        #expect(BrokenStores.bytes(of: real) == before)
    }

    @Test func writingThroughALinkWritesBesideTheTarget() throws {
        let real = try BrokenStores.withWriteAheadLog(from: Fixtures.exampleStore)
        let link = try link(to: real)
        do {
            let store = try PersistentStore(path: link, model: Fixtures.bookStoreModel(), readOnly: false)
            #expect(store.resolvedPath == (try StoreFile.resolve(real)))
            #expect(try titles(store).contains(BrokenStores.loggedTitle))
            let context = ManagedObjectContext(store: store)
            try context.insert("Book").set("title", "Written through a link")
            try context.save()
        }
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: link + suffix), "\(link + suffix) was made beside the link")
        }
        let reopened = try PersistentStore(path: real, model: Fixtures.bookStoreModel())
        #expect(try titles(reopened).contains("Written through a link"))
        #expect(try titles(reopened).contains(BrokenStores.loggedTitle))
    }

    @Test func aHotJournalThroughALinkIsRolledBackWhenWriting() throws {
        let real = try BrokenStores.withHotJournal(from: Fixtures.exampleStore)
        let store = try PersistentStore(path: try link(to: real), model: Fixtures.bookStoreModel(), readOnly: false)
        #expect(try store.count(of: store.mapping(for: "Book")) == 3)
        #expect(!FileManager.default.fileExists(atPath: real + "-journal"))
    }
}
