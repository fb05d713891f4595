import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// The framework's own tables come through a migration: persistent history's
    /// transactions and their strings row for row, each change with its entity number
    /// translated to the new version's numbering, other framework tables as they are, and
    /// their `Z_PRIMARYKEY` counters; a table nothing accounts for is named in the plan.
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

        /// Another framework entity's table (numbered 16004) comes along as it is, with its
        /// `Z_PRIMARYKEY` row; an app's own table, which neither the model nor the framework
        /// accounts for, is named in the plan as not carried (the backup keeps it).
        @Test func otherFrameworkTablesComeAlongAndAnAppTableIsNamed() throws {
            let v1 = try ManagedObjectModel(entities: [EntityDescription("Note", attributes: [AttributeDescription("text", .string)])])
            let v2 = try ManagedObjectModel(entities: [
                EntityDescription("Note", attributes: [AttributeDescription("text", .string), AttributeDescription("pinned", .boolean)])
            ])
            let path = try Fixtures.newStorePath()
            // Closed before the migration, which refuses while a store is open for writing.
            do {
                let store = try PersistentStore.create(at: path, model: v1)
                let context = ManagedObjectContext(store: store)
                try context.insert("Note").set("text", "hello")
                try context.save()
                let connection = try Connection(path: path, mode: .readWrite)
                try connection.execute("CREATE TABLE AFRAMEWORKRECORD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)")
                try connection.execute("CREATE INDEX AFRAMEWORKRECORD_ZNAME ON AFRAMEWORKRECORD (ZNAME)")
                try connection.execute("INSERT INTO AFRAMEWORKRECORD VALUES (1, 16004, 1, 'zone'), (2, 16004, 1, 'record')")
                try connection.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16004, 'FRAMEWORKRECORD', 0, 2)")
                try connection.execute("CREATE TABLE app_log (id INTEGER PRIMARY KEY, line TEXT)")
                try connection.execute("INSERT INTO app_log (line) VALUES ('started')")
                try store.checkpoint()
            }

            let versions = ModelVersions(path: "built", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
            let manager = MigrationManager(versions: versions)
            let plan = try manager.plan(forStoreAt: path)
            #expect(plan.store?.tablesNotCarried == ["app_log"])
            #expect(plan.text.contains("not carried: table app_log, which the model does not describe"), "\(plan.text)")
            try manager.migrate(storeAt: path)
            let migrated = try Connection(path: path, mode: .readOnly)
            #expect(try migrated.rows("SELECT * FROM AFRAMEWORKRECORD ORDER BY Z_PK") == [
                [.integer(1), .integer(16004), .integer(1), .text("zone")], [.integer(2), .integer(16004), .integer(1), .text("record")],
            ])
            #expect(try migrated.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16004") == [[.text("FRAMEWORKRECORD"), .integer(2)]])
            #expect(try migrated.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'AFRAMEWORKRECORD_ZNAME'") == .integer(1))
            #expect(try migrated.scalar("SELECT COUNT(*) FROM sqlite_master WHERE name = 'app_log'") == .integer(0))
            let backup = try Connection(path: MigrationManager.backupPath(for: path), mode: .readOnly)
            #expect(try backup.scalar("SELECT line FROM app_log") == .text("started"))
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
