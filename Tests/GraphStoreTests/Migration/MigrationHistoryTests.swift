import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Persistent history comes through a migration: transactions and their strings row for
    /// row, each change with its entity number translated to the new version's numbering,
    /// and the history's `Z_PRIMARYKEY` counters.
    @Suite struct MigrationHistoryTests {
        /// The corpus store of sergd2005/ResourcesManager keeps history (55 changes in its
        /// log). Its own model (the cached one) is v1; v2 adds an entity that sorts first, so
        /// every entity number moves up by one.
        @Test func historyIsCarriedWithEntityNumbersTranslated() throws {
            guard let corpus = try Fixtures.requireCorpus("historyIsCarriedWithEntityNumbersTranslated") else { return }
            let original = corpus.appendingPathComponent("stores/sergd2005__ResourcesManager/default.store").path
            let path = try Fixtures.newStorePath("default.store")
            for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix) }
            let v1 = try PersistentStore(path: path).model
            let v2 = try ManagedObjectModel(entities: [EntityDescription("Aardvark", attributes: [AttributeDescription("name", .string)])] + v1.entities)
            let before = try Self.history(path)
            #expect(before.changes.count == 55 && before.transactions.count == 38, "\(before.changes.count) \(before.transactions.count)")

            let versions = ModelVersions(path: "built", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
            let outcome = try MigrationManager(versions: versions).migrate(storeAt: path, options: .init(keepsBackup: false))
            #expect(outcome.replacedStore)
            let after = try Self.history(path)
            #expect(after.transactions == before.transactions)
            #expect(after.strings == before.strings)
            #expect(after.keys == before.keys)
            #expect(after.changes.count == before.changes.count)
            for (old, new) in zip(before.changes, after.changes) {
                // Z_PK, entity, key of the changed object, change type, transaction, columns.
                #expect(new[0] == old[0] && new[2] == old[2] && new[3] == old[3] && new[4] == old[4] && new[5] == old[5])
                guard case .integer(let entity) = old[1] else { Issue.record("\(old)"); continue }
                #expect(new[1] == .integer(entity + 1), "\(old) → \(new)")
            }
            let migrated = try PersistentStore(path: path, model: v2, origin: .given, readOnly: true)
            #expect(try migrated.count(of: migrated.mapping(for: "Item")) == 7)
        }

        struct History {
            var transactions: [[SQLiteValue]]
            var strings: [[SQLiteValue]]
            var changes: [[SQLiteValue]]
            var keys: [[SQLiteValue]]
        }

        static func history(_ path: String) throws -> History {
            let connection = try Connection(path: path, mode: .readOnly)
            return History(
                transactions: try connection.rows("SELECT * FROM ATRANSACTION ORDER BY Z_PK"),
                strings: try connection.rows("SELECT * FROM ATRANSACTIONSTRING ORDER BY Z_PK"),
                changes: try connection.rows("SELECT Z_PK, ZENTITY, ZENTITYPK, ZCHANGETYPE, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY Z_PK"),
                keys: try connection.rows("SELECT * FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"))
        }
    }
}
