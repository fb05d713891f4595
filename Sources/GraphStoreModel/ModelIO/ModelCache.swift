import Foundation

/// The model Core Data keeps inside a store: `Z_MODELCACHE`, decoded.
///
/// Core Data writes one row into `Z_MODELCACHE` holding the model that last wrote the store,
/// as a raw DEFLATE stream (no zlib header) of an `NSKeyedArchiver` binary property list of
/// the `NSManagedObjectModel`. Decoding it gives the store's exact property names and types,
/// relationships with inverses and delete rules, inheritance, constraints and indexes, which
/// schema inference can only guess. The archive does not hold the entities' version hashes;
/// `PersistentStore` takes those from the store's metadata.
///
/// ```swift
/// let cache = try ModelCache(compressed: blob)          // Z_MODELCACHE.Z_CONTENT
/// print(cache.model.entities.map(\.name))
/// let same = try ModelCache(archive: inflatedPlist)     // a .mom file: the archive alone
/// ```
public struct ModelCache: Sendable {
    /// The decoded model.
    public let model: ManagedObjectModel
    /// What was odd in the archive and how it was handled.
    public let warnings: [ModelWarning]

    /// Decodes a `Z_MODELCACHE` blob: inflates it, then decodes the archive.
    public init(compressed blob: Data) throws(ModelCacheError) {
        let archive: Data
        do {
            archive = try RawDeflate.decompress(blob)
        } catch {
            throw .notCompressed(error.description)
        }
        try self.init(archive: archive)
    }

    /// Decodes an uncompressed `NSKeyedArchiver` archive of an `NSManagedObjectModel`.
    public init(archive data: Data) throws(ModelCacheError) {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(propertyList: data)
        } catch {
            switch error {
            case .notAPropertyList(let reason): throw .notAPropertyList(reason)
            case .notAnArchive(let reason): throw .notAnArchive(reason)
            case .malformed(let reason): throw .malformedArchive(entity: nil, property: nil, reason: reason)
            }
        }
        var draft = try ModelArchiveDecoder(archive: archive).decode()
        do {
            model = try draft.build()
        } catch {
            throw .invalidModel(error)
        }
        warnings = draft.warnings
    }

    /// A cache whose model carries the entity version hashes from a store's metadata.
    package func withVersionHashes(_ hashes: [String: Data]) -> ModelCache {
        var model = model
        model.knownVersionHashes = hashes.filter { name, _ in model.entity(named: name) != nil }
        return ModelCache(model: model, warnings: warnings)
    }

    private init(model: ManagedObjectModel, warnings: [ModelWarning]) {
        self.model = model
        self.warnings = warnings
    }
}
