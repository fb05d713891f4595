import Foundation
import Testing
import TestScratch

/// `save` and `.history` with the built binary on a copy of the corpus's SwiftData store,
/// which tracks persistent history: a save appends its transaction, `.history --since`
/// shows it, `save --without-history` appends none.
@Suite struct HistoryEndToEndTests {
    /// A writable copy of the store with its -wal and -shm, or nil without the corpus.
    static func copyOfHistoryStore(_ test: String) throws -> String? {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("../shared/corpus is required but missing") }
            print("skipped \(test): ../shared/corpus is not present")
            return nil
        }
        let source = corpus.appendingPathComponent("stores/sergd2005__ResourcesManager/default.store").path
        let copy = try ScratchDirectory.make("history-e2e").appendingPathComponent("default.store").path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: copy + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy + suffix)
        }
        return copy
    }

    @Test func aSaveShowsInHistoryAndWithoutHistoryAddsNone() throws {
        guard let store = try Self.copyOfHistoryStore("aSaveShowsInHistoryAndWithoutHistoryAddsNone") else { return }
        let result = try ScriptTests.run(["--write", "-csv", store], input: """
            set Item/p10 name="Bolt"
            save
            .history --since 38
            set Item/p10 name="Bolts"
            save --without-history
            .history --since 39
            .mode line
            .history --since 37

            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = "transaction,timestamp,author,context,process,change,type,object,properties"
        // After the first save: its one transaction, one change.
        let first = try #require(lines.firstIndex(of: header))
        #expect(lines[first + 1].hasPrefix("39,"), "\(result.stdout)")
        #expect(lines[first + 1].hasSuffix(",,,graphstore,56,update,Item/p10,name"), "\(result.stdout)")
        // After the save without history: nothing after transaction 39.
        let second = try #require(lines[(first + 1)...].firstIndex(of: header))
        #expect(!lines[second + 1].hasPrefix("39,") && !lines[second + 1].hasPrefix("40,"), "\(result.stdout)")
        // Line mode: Core Data's transaction 38 (an insert and an update) and ours.
        #expect(result.stdout.contains("transaction = 38"), "\(result.stdout)")
        #expect(result.stdout.contains("process = ResourcesManager"), "\(result.stdout)")
        #expect(result.stdout.contains("transaction = 39"), "\(result.stdout)")
        #expect(!result.stdout.contains("transaction = 40"), "\(result.stdout)")
        let count = try ScriptTests.run(["-list", "-noheader", store, "-c", "sql SELECT COUNT(*) FROM ATRANSACTION"])
        #expect(count.stdout == "39\n", "\(count.stdout)\(count.stderr)")
        let name = try ScriptTests.run(["-list", "-noheader", store, "-c", "sql SELECT ZNAME FROM ZITEM WHERE Z_PK = 10"])
        #expect(name.stdout == "Bolts\n")
    }

    @Test func historyOnAStoreWithoutItSaysSo() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let result = try ScriptTests.run([store, "-c", ".history"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("keeps no persistent history"), "\(result.stderr)")
    }
}
