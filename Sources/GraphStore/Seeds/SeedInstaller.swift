import Foundation

/// What an app calls at launch to give its store the bundled seed: if the store does not
/// exist, the seed is copied in with its external data files (all or nothing); otherwise each seed update the store has
/// not had yet is applied, in order, one transaction each, and the version reached is
/// recorded in the store's metadata (``SeedUpdate/versionKey``, a key Core Data keeps).
/// Updates find objects by natural key and are guarded, so users' own objects are never
/// touched, and a second launch changes nothing.
///
/// ```swift
/// let installer = SeedInstaller(
///     storePath: documents + "/BookStore.sqlite", seedPath: bundle + "/seed.sqlite",
///     seedVersion: "1", updates: [.init(version: "2", text: fourthBook)], model: model)
/// let report = try installer.install()   // .copiedSeed, or the updates applied
/// ```
public struct SeedInstaller {
    /// One update and the seed version a store has once it is applied.
    public struct Update: Sendable {
        /// The version reached.
        public var version: String
        /// The update's text (see ``SeedUpdate``).
        public var text: String

        /// An update.
        public init(version: String, text: String) {
            self.version = version
            self.text = text
        }
    }

    /// What an installation did.
    public enum Report: Sendable, Equatable {
        /// The store did not exist: the seed was copied (its version recorded).
        case copiedSeed(version: String)
        /// The store existed: these updates were applied (none when it was up to date).
        case applied([String: SeedUpdate.Outcome], version: String)
    }

    /// The app's store.
    public var storePath: String
    /// The bundled seed store (checkpointed: no write-ahead log with rows beside it).
    public var seedPath: String
    /// The version of the bundled seed.
    public var seedVersion: String
    /// The updates, oldest first; the last one's version should be the seed's.
    public var updates: [Update]
    /// The app's model.
    public var model: ManagedObjectModel

    /// An installer.
    public init(storePath: String, seedPath: String, seedVersion: String, updates: [Update], model: ManagedObjectModel) {
        self.storePath = storePath
        self.seedPath = seedPath
        self.seedVersion = seedVersion
        self.updates = updates
        self.model = model
    }

    /// Copies the seed or applies the pending updates; see ``SeedInstaller``.
    @discardableResult
    public func install() throws -> Report {
        let files = FileManager.default
        if !files.fileExists(atPath: storePath) {
            try copySeed()
            return .copiedSeed(version: seedVersion)
        }
        let store = try PersistentStore(path: storePath, model: model, readOnly: false)
        let recorded = store.metadata.properties[SeedUpdate.versionKey] as? String
        // Updates after the recorded version; a store with none recorded has had none.
        let start = recorded.flatMap { version in updates.firstIndex { $0.version == version }.map { $0 + 1 } } ?? 0
        var outcomes: [String: SeedUpdate.Outcome] = [:]
        var version = recorded ?? ""
        for update in updates[start...] {
            let context = ManagedObjectContext(store: store)
            outcomes[update.version] = try SeedUpdate(text: update.text, name: "update \(update.version)")
                .apply(to: context, name: "update \(update.version)", version: update.version)
            version = update.version
        }
        return .applied(outcomes, version: version)
    }

    /// Copies the seed beside the store under a temporary name, records its version there,
    /// and renames it into place: the store appears whole or not at all.
    private func copySeed() throws {
        let files = FileManager.default
        if let size = (try? files.attributesOfItem(atPath: seedPath + "-wal"))?[.size] as? NSNumber, size.intValue > 0 {
            throw SeedError("\(seedPath): the seed has a write-ahead log with rows in it; checkpoint it before bundling (graphstore verify says so)")
        }
        let temporary = storePath + ".seeding-\(UUID().uuidString)"
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? files.removeItem(atPath: temporary + suffix) }
        }
        do {
            try files.copyItem(atPath: seedPath, toPath: temporary)
        } catch {
            throw SeedError("\(seedPath): cannot be copied to \(storePath) (\(error.localizedDescription))")
        }
        do {
            let store = try PersistentStore(path: temporary, model: model, readOnly: false)
            try store.setMetadataValue(seedVersion, forKey: SeedUpdate.versionKey)
            try store.checkpoint()
        }
        let folder = try copySupportFolder()
        guard rename(temporary, storePath) == 0 else {
            let reason = String(cString: strerror(errno))
            if let folder { try? files.removeItem(atPath: folder.path) }
            throw SeedError("\(storePath): the seed cannot be moved into place (\(reason))")
        }
    }

    /// The seed's external data files (its support folder) copied beside the store before
    /// the store itself appears, so that no reference of the new store points at nothing. A
    /// support folder already there with no store beside it is what an install cut short
    /// left: no store references it, and it is replaced.
    private func copySupportFolder() throws -> StoreSupportFolder? {
        let leftover = StoreSupportFolder(storePath: storePath)
        if FileManager.default.fileExists(atPath: leftover.path) { try FileManager.default.removeItem(atPath: leftover.path) }
        return try StoreSupportFolder(storePath: seedPath).copy(besideStoreAt: storePath)
    }
}
