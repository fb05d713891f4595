import Foundation
import Testing
import TestScratch

/// `.metadata` on real files: the metadata property list (an app's own keys included),
/// the journal mode from the file's header, and the files beside the store.
@Suite struct MetadataEndToEndTests {
    /// `.metadata` as `item → value`.
    static func metadata(_ store: String) throws -> [String: String] {
        let result = try ScriptTests.run(["-list", "-noheader", "-separator", "\t", store, ".metadata"])
        #expect(result.status == 0, "\(result.stderr)")
        var items: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            items[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return items
    }

    @Test func theExampleStore() throws {
        let items = try Self.metadata(GraphStoreBinary.exampleStore)
        #expect(items["UUID"] == "37F57629-6D20-4B9F-98F9-C96E971ECA19")
        #expect(items["store type"] == "SQLite")
        #expect(items["framework version"] == "1345")
        #expect(items["version identifiers"] == "\"\"")
        // The hashes as hex, as the metadata holds them (32 bytes each): Core Data's own for
        // the BookStore model, as in the Apress seed Core Data wrote.
        #expect(items["version hash Book"] == "359939b7b3dde592c339401ae51f89a9df0b53f1c902630e7d1794205b1f5eb8")
        #expect(items["version hash Page"]?.count == 64)
        #expect(items["journal mode"] == "WAL, write-ahead log (header bytes 18-19: 2, 2)")
        #expect(items["file -wal"]?.hasPrefix("none (") == true)
        #expect(items["file -shm"] == "none")
        #expect(items["file -journal"] == "none")
    }

    /// A store with its log beside it shows the log's size; one in rollback-journal mode
    /// with an interrupted write shows its journal.
    @Test func companionFilesAndTheirSizes() throws {
        let logged = try BrokenStores.withWriteAheadLog(from: GraphStoreBinary.exampleStore)
        let items = try Self.metadata(logged)
        let walSize = try FileManager.default.attributesOfItem(atPath: logged + "-wal")[.size] as? Int
        #expect(items["file -wal"] == "\(walSize ?? -1) bytes")
        #expect(items["file -shm"] == "32768 bytes")
        let hot = try BrokenStores.withHotJournal(from: GraphStoreBinary.exampleStore)
        let journal = try Self.metadata(hot)
        #expect(journal["journal mode"] == "rollback journal (header bytes 18-19: 1, 1)")
        #expect(journal["file -journal"]?.hasSuffix("bytes (an interrupted write: rolled back when the store is next opened for writing)") == true)
        #expect(journal["file -wal"] == "none")
    }

    /// Every key an app put in the metadata is shown, with its value.
    @Test func anAppsOwnKeys() throws {
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        let plist = try #require(try Self.metadataPlist(of: store))
        var properties = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        properties["MyAppSchemaRevision"] = 7
        properties["MyAppImportedFrom"] = "seed-2024"
        properties["MyAppToken"] = Data([0xca, 0xfe])
        let encoded = try PropertyListSerialization.data(fromPropertyList: properties, format: .binary, options: 0)
        try SQLiteFile(store).execute("UPDATE Z_METADATA SET Z_PLIST = X'\(encoded.map { String(format: "%02x", $0) }.joined())'")
        let items = try Self.metadata(store)
        #expect(items["app key MyAppSchemaRevision"] == "7")
        #expect(items["app key MyAppImportedFrom"] == "seed-2024")
        #expect(items["app key MyAppToken"] == "cafe")
        #expect(items["app key NSStoreType"] == nil)
    }

    private static func metadataPlist(of store: String) throws -> Data? {
        let result = try ScriptTests.run(["-json", store, "sql SELECT Z_PLIST FROM Z_METADATA"])
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        // Blobs print as 0x and hex in JSON.
        guard let hex = rows?.first?["Z_PLIST"] as? String, hex.hasPrefix("0x") else { return nil }
        var bytes: [UInt8] = []
        var index = hex.index(hex.startIndex, offsetBy: 2)
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes)
    }
}
