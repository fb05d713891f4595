import Crypto
import Foundation

extension ManagedObjectModel {
    /// The 32-byte version hash of each entity, for `NSStoreModelVersionHashes`.
    ///
    /// Where the model carries Apple's hash for an entity (``knownVersionHashes``), that is
    /// used. Otherwise the hash is **GraphStore's own**: SHA-256 over a canonical text of
    /// what Core Data documents as feeding its hash (entity name, parent's hash, abstract
    /// flag, modifier, and each stored property's name, optionality, transience, type or
    /// destination/inverse/ordering/counts, and modifier). Apple's byte layout is not public,
    /// so these hashes are deterministic and change when the schema changes, but they do not
    /// equal the ones Core Data would compute.
    public var entityVersionHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        for entity in entitiesInNumberingOrder {
            hashes[entity.name] = knownVersionHashes[entity.name] ?? ownVersionHash(of: entity, parentHash: entity.parent.flatMap { hashes[$0] })
        }
        return hashes
    }

    private func ownVersionHash(of entity: EntityDescription, parentHash: Data?) -> Data {
        var text = "entity:\(entity.name)|abstract:\(entity.isAbstract)|modifier:\(entity.versionHashModifier ?? "")"
        if let parentHash { text += "|parent:" + parentHash.base64EncodedString() }
        for a in entity.attributes.sorted(by: { $0.name < $1.name }) {
            text += "|attribute:\(a.name),\(a.type.rawValue),\(a.isOptional),\(a.isTransient),"
            text += "\(a.allowsExternalBinaryDataStorage),\(a.preservesValueInHistoryOnDeletion),\(a.versionHashModifier ?? "")"
        }
        for r in entity.relationships.sorted(by: { $0.name < $1.name }) {
            text += "|relationship:\(r.name),\(r.destination),\(r.inverse ?? ""),\(r.isToMany),\(r.isOrdered),"
            text += "\(r.minCount),\(r.maxCount),\(r.isOptional),\(r.isTransient),\(r.versionHashModifier ?? "")"
        }
        return Data(SHA256.hash(data: Data(text.utf8)))
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name (in
    /// code-point order) followed by its 32-byte hash.
    public static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            bytes.append(contentsOf: Array(name.utf8))
            bytes.append(hashes[name] ?? Data())
        }
        return Data(SHA512.hash(data: bytes)).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in
    /// code-point order of their names.
    public static func versionChecksum(_ hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            bytes.append(hashes[name] ?? Data())
        }
        return Data(SHA256.hash(data: bytes)).base64EncodedString()
    }
}
