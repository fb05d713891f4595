import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// A migration beside other writers of the store, two real connections in lock-step: it
    /// refuses while a store is open for writing, holds GraphStore's writer lock for its
    /// whole run, and a writer whose file was put out of place refuses to save; an earlier
    /// backup is never overwritten.
    @Suite struct MigrationWriterLockTests {
        typealias Run = MigrationRunTests

        /// Books stored at `path`, read through a fresh read-only store of `model`.
        static func titles(_ path: String, model: ManagedObjectModel, entity: String, key: String) throws -> [String] {
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
            return try context.fetch(entity).map { try $0.get(key, as: String.self) ?? "" }.sorted()
        }

        @Test func aStoreOpenForWritingMakesTheMigrationRefuseAndKeepsItsSaves() throws {
            let path = try Run.store()
            let writer = try PersistentStore(path: path, model: try Run.v1(), readOnly: false)
            let context = ManagedObjectContext(store: writer)
            let before = Fixtures.fingerprint(path)
            let refusal = #expect(throws: MigrationRunError.self) {
                try Run.manager().migrate(storeAt: path, options: .init(writerPatience: .zero))
            }
            // The holder is this process, which is not named as another.
            #expect(refusal.map { "\($0)" } == "\(path) is open for writing in another program, which would go on writing the old file once the migrated one took its place; close it and migrate again")
            #expect(Fixtures.fingerprint(path) == before)
            #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
            // The writer's save lands in the store.
            try context.insert("Book").set("title", "Saved beside")
            try context.save()
            #expect(try Self.titles(path, model: Run.v1(), entity: "Book", key: "title").contains("Saved beside"))
        }

        /// While the migration runs (its progress is reported between entities), the lock is
        /// held: a writer cannot take it, a reader can still read.
        @Test func theMigrationHoldsTheWriterLockForItsWholeRun() throws {
            let path = try Run.store()
            let resolved = try StoreFile.resolve(path)
            var seen: [Bool] = []
            try Run.manager().migrate(storeAt: path) { _ in
                switch StoreWriterLock.take(.writer, on: resolved, patience: .zero) {
                case .failure(.held): seen.append(true)
                default: seen.append(false)
                }
            }
            #expect(!seen.isEmpty && seen.allSatisfy { $0 }, "\(seen)")
            // Released at the end: a writer opens the migrated store.
            let writer = try PersistentStore(path: path, model: try Run.v2(), readOnly: false)
            #expect(try writer.count(of: writer.mapping(for: "Publication")) == 3)
        }

        /// A file put in the store's place by a program that does not take the lock (a copy
        /// renamed over it): the store opened before refuses its next save, and neither the
        /// old file nor the new one is written.
        @Test func aWriterWhoseFileWasReplacedRefusesToSave() throws {
            let path = try Run.store()
            let writer = try PersistentStore(path: path, model: try Run.v1(), readOnly: false)
            let context = ManagedObjectContext(store: writer)
            let copy = path + ".copy"
            let old = path + ".old"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            #expect(link(path, old) == 0)
            #expect(rename(copy, path) == 0)
            try context.insert("Book").set("title", "Nowhere")
            #expect(throws: StoreError.replaced(path: path)) { try context.save() }
            #expect(context.hasChanges)
            #expect(throws: StoreError.replaced(path: path)) { try writer.checkpoint() }
            for file in [path, old] {
                #expect(try !Self.titles(file, model: Run.v1(), entity: "Book", key: "title").contains("Nowhere"), "\(file)")
            }
            // Removed altogether: the same.
            #expect(unlink(path) == 0)
            #expect(throws: StoreError.replaced(path: path)) { try context.save() }
        }

        /// A second migration with a backup to keep, beside the first one's backup: refused
        /// before anything is written, naming it; without a backup it runs.
        @Test func anEarlierBackupIsNeverOverwritten() throws {
            let path = try Run.store()
            try Run.manager().migrate(storeAt: path)
            let backup = MigrationManager.backupPath(for: path)
            let kept = Fixtures.fingerprint(backup)
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: backup, toPath: path)
            let before = Fixtures.fingerprint(path)
            let refusal = #expect(throws: MigrationRunError.self) { try Run.manager().migrate(storeAt: path) }
            #expect(refusal.map { "\($0)" } == "\(backup) already exists, from an earlier migration, and GraphStore does not overwrite a backup: move it away, or migrate without keeping a backup")
            #expect(Fixtures.fingerprint(path) == before)
            #expect(Fixtures.fingerprint(backup) == kept)
            let outcome = try Run.manager().migrate(storeAt: path, options: .init(keepsBackup: false))
            #expect(outcome.replacedStore && outcome.backup == nil)
            #expect(Fixtures.fingerprint(backup) == kept)
        }

        /// A migration killed between its link of the backup and its swap leaves the backup
        /// as a second name of the store itself (and a copy of its support folder): the next
        /// migration takes that for what it is, not for an earlier backup, and runs.
        @Test func theBackupOfAKilledSwapIsNoEarlierBackup() throws {
            let path = try Run.store()
            let backup = MigrationManager.backupPath(for: path)
            #expect(link(path, backup) == 0)
            let folder = StoreSupportFolder(storePath: backup).path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let before = Fixtures.fingerprint(path)
            let outcome = try Run.manager().migrate(storeAt: path)
            #expect(outcome.replacedStore && outcome.backup == backup)
            #expect(Fixtures.fingerprint(backup) == before, "the backup is the store as it was")
            #expect(!FileManager.default.fileExists(atPath: folder))
        }
    }
}
