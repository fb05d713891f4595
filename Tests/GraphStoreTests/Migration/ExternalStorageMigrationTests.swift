import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// A change of "Allows External Storage" moves the values: into the external-storage
    /// format (large ones into files) when it is turned on, back into the table as raw bytes
    /// when it is turned off; every value reads the same after the migration, in the store
    /// and in its backup.
    @Suite struct ExternalStorageMigrationTests {
        typealias F = MigrationFixtures

        /// Item (name, blob) with a sub-entity Scan (pages); `blob` allows external storage
        /// when `external`; `note` is a later addition.
        static func model(external: Bool, note: Bool = false) throws -> ManagedObjectModel {
            var blob = AttributeDescription("blob", .binaryData)
            blob.allowsExternalBinaryDataStorage = external
            return try ManagedObjectModel(entities: [
                EntityDescription("Item", attributes: [AttributeDescription("name", .string), blob] + (note ? [AttributeDescription("note", .string)] : [])),
                EntityDescription("Scan", parent: "Item", attributes: [AttributeDescription("pages", .integer16)]),
            ])
        }

        static let large = Data((0..<(PersistentStore.externalDataThreshold + 5)).map { UInt8($0 % 251) })
        static let larger = Data(repeating: 7, count: PersistentStore.externalDataThreshold * 2)
        static let small = Data([0x02, 0x41, 0x00, 0x01])   // starts like a reference: raw bytes all the same

        /// Name → value of every object written by ``store(external:)``.
        static let values: [String: Data?] = [
            "small": small, "large": large, "empty": Data(), "nil": nil, "scan-small": Data([1, 2, 3]), "scan-large": larger,
        ]

        /// A store of ``model(external:)`` holding ``values`` (names starting `scan-` are Scans).
        static func store(external: Bool) throws -> String {
            let path = try Fixtures.newStorePath()
            let store = try PersistentStore.create(at: path, model: try model(external: external))
            let context = ManagedObjectContext(store: store)
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let item = try context.insert(name.hasPrefix("scan-") ? "Scan" : "Item")
                try item.set("name", name)
                if let value { try item.set("blob", value) }
            }
            try context.save()
            try store.checkpoint()
            return path
        }

        /// Every object's value, read back from the store at `path` opened anew with `model`.
        static func read(_ path: String, model: ManagedObjectModel) throws -> [String: Data?] {
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
            var found: [String: Data?] = [:]
            for item in try context.fetch("Item") {
                found[try #require(try item.get("name", as: String.self))] = try item.get("blob", as: Data.self)
            }
            return found
        }

        /// The names of the files the objects' references name.
        static func references(_ path: String, model: ManagedObjectModel) throws -> [String: String] {
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
            var found: [String: String] = [:]
            for item in try context.fetch("Item") {
                if let reference = try item.externalDataReference(forKey: "blob") {
                    found[try #require(try item.get("name", as: String.self))] = reference.name
                }
            }
            return found
        }

        static func anomalies(_ path: String, model: ManagedObjectModel) throws -> [StorageAnomaly] {
            try PersistentStore(path: path, model: model).storageAnomalies()
        }

        @Test func turnedOnLargeValuesGoToFilesAndEveryValueReadsTheSame() throws {
            let (v1, v2) = (try Self.model(external: false), try Self.model(external: true))
            let path = try Self.store(external: false)
            let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            #expect(try Self.read(path, model: v2) == Self.values)
            let references = try Self.references(path, model: v2)
            #expect(Set(references.keys) == ["large", "scan-large"])
            let folder = StoreSupportFolder(storePath: path)
            #expect(try folder.externalDataFileNames() == references.values.sorted())
            #expect(try Self.anomalies(path, model: v2).isEmpty)
            // The backup is the old store: raw bytes in the table, no files of its own.
            let backup = try #require(outcome.backup)
            #expect(try Self.read(backup, model: v1) == Self.values)
            #expect(try StoreSupportFolder(storePath: backup).externalDataFileNames().isEmpty)
            #expect(try Self.anomalies(backup, model: v1).isEmpty)
        }

        @Test func turnedOffEveryValueComesBackIntoTheTable() throws {
            let (v1, v2) = (try Self.model(external: true), try Self.model(external: false))
            let path = try Self.store(external: true)
            let before = try Self.references(path, model: v1)
            #expect(Set(before.keys) == ["large", "scan-large"])
            let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            #expect(try Self.read(path, model: v2) == Self.values)
            // The files only the old store named are gone from the store's folder…
            #expect(try StoreSupportFolder(storePath: path).externalDataFileNames().isEmpty)
            #expect(try Self.anomalies(path, model: v2).isEmpty)
            // … and kept beside the backup, which reads every value.
            let backup = try #require(outcome.backup)
            #expect(try StoreSupportFolder(storePath: backup).externalDataFileNames() == before.values.sorted())
            #expect(try Self.read(backup, model: v1) == Self.values)
            #expect(try Self.anomalies(backup, model: v1).isEmpty)
        }

        /// Turned on in the first of two steps, then kept or turned off: the second step
        /// finds the files the first wrote; none is left that no row names.
        @Test(arguments: [true, false]) func turnedOnThenKeptOrOffAcrossTwoSteps(keptOn: Bool) throws {
            let (v1, v2, v3) = (try Self.model(external: false), try Self.model(external: true), try Self.model(external: keptOn, note: true))
            let path = try Self.store(external: false)
            let outcome = try MigrationManager(versions: F.versions(v1, v2, v3)).migrate(storeAt: path, route: .everyVersion, options: .init(keepsBackup: false))
            #expect(outcome.plan.steps.count == 2)
            #expect(try Self.read(path, model: v3) == Self.values)
            let references = try Self.references(path, model: v3)
            #expect(Set(references.keys) == (keptOn ? ["large", "scan-large"] : []))
            #expect(try StoreSupportFolder(storePath: path).externalDataFileNames() == references.values.sorted())
            #expect(try Self.anomalies(path, model: v3).isEmpty)
        }

        @Test func aMissingFileFailsTheMigrationAndChangesNothing() throws {
            let (v1, v2) = (try Self.model(external: true), try Self.model(external: false))
            let path = try Self.store(external: true)
            let references = try Self.references(path, model: v1)
            let file = StoreSupportFolder(storePath: path).externalDataFile(named: try #require(references["scan-large"]))
            try FileManager.default.removeItem(atPath: file)
            let before = Fixtures.fingerprint(path)
            let files = try StoreSupportFolder(storePath: path).externalDataFileNames()
            let error = try #require(throws: MigrationRunError.self) {
                try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            }
            guard case .store(.externalDataMissing(let entity, _, let key, let missing)) = error else { Issue.record("\(error)"); return }
            #expect(entity == "Scan" && key == "blob" && missing.hasSuffix(references["scan-large"] ?? "?"))
            #expect("\(error)".contains("Scan/p"), "\(error)")
            #expect(Fixtures.fingerprint(path) == before)
            #expect(try StoreSupportFolder(storePath: path).externalDataFileNames() == files)
            let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(left.allSatisfy { !$0.contains("migrating") && !$0.contains("backup") }, "\(left)")
        }

        @Test func aFailedMigrationRemovesTheFilesItWrote() throws {
            // Turned on, with names the new version limits to 3 characters: the objects fail
            // its validation once the values have moved, and the files written for the new
            // store go; the store and its (absent) folder are as they were.
            let v1 = try Self.model(external: false)
            var blob = AttributeDescription("blob", .binaryData)
            blob.allowsExternalBinaryDataStorage = true
            var name = AttributeDescription("name", .string)
            name.maxLength = 3
            let strict = try ManagedObjectModel(entities: [
                EntityDescription("Item", attributes: [name, blob]),
                EntityDescription("Scan", parent: "Item", attributes: [AttributeDescription("pages", .integer16)]),
            ])
            let path = try Self.store(external: false)
            let before = Fixtures.fingerprint(path)
            let error = try #require(throws: MigrationRunError.self) { try MigrationManager(versions: F.versions(v1, strict)).migrate(storeAt: path) }
            guard case .validationFailed = error else { Issue.record("\(error)"); return }
            #expect(Fixtures.fingerprint(path) == before)
            #expect(try StoreSupportFolder(storePath: path).externalDataFileNames().isEmpty)
        }

        @Test func aDryRunWritesNothingBesideTheStore() throws {
            let (v1, v2) = (try Self.model(external: false), try Self.model(external: true))
            let path = try Self.store(external: false)
            let directory = (path as NSString).deletingLastPathComponent
            let listing = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            let before = Fixtures.fingerprint(path)
            let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path, options: .init(isDryRun: true))
            #expect(!outcome.replacedStore && outcome.validationFailures.isEmpty && outcome.objectCounts["Scan"] == 2)
            #expect(Fixtures.fingerprint(path) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == listing)
        }
    }
}

extension MigrationTests.ExternalStorageMigrationTests {
    /// A copy of the support folder that a killed migration was making is removed by the
    /// next migration; one another process is still making (it holds the lock), and
    /// another store's, are left alone.
    @Test func aMigrationRemovesAbandonedCopiesOfTheSupportFolder() throws {
        let (v1, v2) = (try Self.model(external: true), try Self.model(external: true, note: true))
        let path = try Self.store(external: true)
        let directory = (path as NSString).deletingLastPathComponent
        let backupFolder = StoreSupportFolder(storePath: MigrationManager.backupPath(for: path)).path
        let abandoned = backupFolder + StoreSupportFolder.partialSuffix + UUID().uuidString
        let inUse = backupFolder + StoreSupportFolder.partialSuffix + UUID().uuidString
        let other = directory + "/.other_SUPPORT" + StoreSupportFolder.partialSuffix + UUID().uuidString
        for folder in [abandoned, inUse, other] {
            try FileManager.default.createDirectory(atPath: folder + "/_EXTERNAL_DATA", withIntermediateDirectories: true)
        }
        let lock = open(inUse, O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
        #expect(outcome.replacedStore)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: inUse) && FileManager.default.fileExists(atPath: other))
        #expect(try Self.read(path, model: v2) == Self.values)
        #expect(try Self.read(try #require(outcome.backup), model: v1) == Self.values)
    }
}

extension MigrationTests.ExternalStorageMigrationTests {
    /// A store file without an extension shares its support folder's name with its backup
    /// (`store` and `store.backup` both have `.store_SUPPORT`): the folder is theirs
    /// together, so the migration neither replaces it with a copy of itself nor removes
    /// the files the backup still names.
    @Test(arguments: [false, true]) func aStoreWithoutExtensionKeepsItsFolderForItselfAndItsBackup(keepsExternal: Bool) throws {
        let (v1, v2) = (try Self.model(external: true), try Self.model(external: keepsExternal, note: true))
        let named = try Self.store(external: true)
        let path = (named as NSString).deletingPathExtension
        try FileManager.default.moveItem(atPath: named, toPath: path)   // .store_SUPPORT is the folder of both names
        #expect(try Self.read(path, model: v1) == Self.values)
        let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
        #expect(try Self.read(path, model: v2) == Self.values)
        #expect(try Self.read(try #require(outcome.backup), model: v1) == Self.values)
    }
}

extension MigrationTests.ExternalStorageMigrationTests {
    /// Off, then on again in a later migration, with the first migration's backup (and its
    /// copy of the folder) still beside the store: the second is refused while it is there
    /// (a backup is never overwritten); once it is moved away, the second reads and writes
    /// the store's own folder, and keeps a backup of its own.
    @Test func turnedOffThenOnAgainBesideAnEarlierBackup() throws {
        let (v1, v2, v3) = (try Self.model(external: true), try Self.model(external: false), try Self.model(external: true, note: true))
        let path = try Self.store(external: true)
        try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
        let first = MigrationManager.backupPath(for: path)
        #expect(StoreSupportFolder(storePath: first).exists)
        #expect(throws: MigrationRunError.self) { try MigrationManager(versions: F.versions(v1, v2, v3)).migrate(storeAt: path) }
        #expect(try Self.read(first, model: v1) == Self.values)
        let moved = path + "-first.backup"
        #expect(rename(first, moved) == 0)
        #expect(rename(StoreSupportFolder(storePath: first).path, StoreSupportFolder(storePath: moved).path) == 0)
        #expect(try Self.read(moved, model: v1) == Self.values)
        let outcome = try MigrationManager(versions: F.versions(v1, v2, v3)).migrate(storeAt: path)
        #expect(outcome.plan.steps.count == 1)
        #expect(try Self.read(path, model: v3) == Self.values)
        #expect(try Self.anomalies(path, model: v3).isEmpty)
        #expect(try Self.read(try #require(outcome.backup), model: v2) == Self.values)
        #expect(try Self.anomalies(try #require(outcome.backup), model: v2).isEmpty)
    }
}
