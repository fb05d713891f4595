import Foundation

// Core Data's version hashes (`NSStoreModelVersionHashes`), computed the way Core Data
// computes them. The construction was derived from the corpus, where it reproduces every
// store's own hashes; docs/version-hashes.md describes it and what it is verified on.
//
// Every hash is SHA-256 over fields laid end to end: strings as UTF-8 without terminator or
// length, flags as one byte 00/01, numbers as unsigned 32-bit little-endian, and optional
// parts (a nil modifier or inverse, a false trailing flag) left out.

extension AttributeDescription {
    /// Core Data's version hash of this attribute (32 bytes): SHA-256 of the property part
    /// (name, optional, transient, modifier), the `NSAttributeType` code, and a `01` byte
    /// each for external binary storage and for preserving the value in history on deletion.
    ///
    /// ```swift
    /// AttributeDescription("name", .string).versionHash.count   // 32
    /// ```
    public var versionHash: Data {
        var buffer = VersionHashBuffer()
        buffer.append(VersionHashBuffer.propertyPart(name: name, isOptional: isOptional, isTransient: isTransient, modifier: versionHashModifier))
        buffer.append(UInt32(truncatingIfNeeded: type.rawValue))
        if allowsExternalBinaryDataStorage { buffer.append(true) }
        if preservesValueInHistoryOnDeletion { buffer.append(true) }
        return buffer.sha256
    }
}

extension RelationshipDescription {
    /// Core Data's version hash of this relationship (32 bytes): SHA-256 of the property
    /// part, the destination entity's name, the inverse's name (when there is one), the
    /// maximum then the minimum count (a maximum of 0 is an unbounded to-many), and `01 00`
    /// when the relationship is ordered.
    public var versionHash: Data {
        var buffer = VersionHashBuffer()
        buffer.append(VersionHashBuffer.propertyPart(name: name, isOptional: isOptional, isTransient: isTransient, modifier: versionHashModifier))
        buffer.append(destination)
        if let inverse { buffer.append(inverse) }
        buffer.append(UInt32(truncatingIfNeeded: maxCount))
        buffer.append(UInt32(truncatingIfNeeded: minCount))
        if isOrdered { buffer.append(Data([0x01, 0x00])) }
        return buffer.sha256
    }
}

extension ManagedObjectModel {
    /// The 32-byte version hash of each entity, as a store's `NSStoreModelVersionHashes`
    /// lists them.
    ///
    /// For an entity listed in ``knownVersionHashes`` (the hashes a store's metadata carries,
    /// kept when the model was decoded from that store's `Z_MODELCACHE`) that hash is used.
    /// For every other entity the hash is the one Core Data's construction gives for the
    /// model (``computedVersionHashes``); where ``unverifiedVersionHashes`` names the entity,
    /// the model uses a feature no known store confirms, so that hash may differ from Apple's.
    ///
    /// ```swift
    /// let hashes = model.entityVersionHashes
    /// hashes["Book"] == store.metadata.versionHashes["Book"]   // same model, same hash
    /// ```
    public var entityVersionHashes: [String: Data] {
        computedVersionHashes.merging(knownVersionHashes.filter { entity(named: $0.key) != nil }) { _, known in known }
    }

    /// Each entity's version hash computed from the model with Core Data's construction,
    /// whatever ``knownVersionHashes`` says: SHA-256 of the entity name, its abstract flag,
    /// its parent's hash, the hashes of all its stored attributes and relationships
    /// (inherited ones included, transient and fetched ones not) in byte order of their
    /// names, its version hash modifier, and each of its own uniqueness constraints as the
    /// property names joined by `"."`.
    public var computedVersionHashes: [String: Data] {
        var hashes: [String: Data] = [:]
        // Numbering order visits a parent before its sub-entities.
        for entity in entitiesInNumberingOrder {
            hashes[entity.name] = versionHash(of: entity, parentHash: entity.parent.flatMap { hashes[$0] })
        }
        return hashes
    }

    private func versionHash(of entity: EntityDescription, parentHash: Data?) -> Data {
        var buffer = VersionHashBuffer()
        buffer.append(entity.name)
        buffer.append(entity.isAbstract)
        if let parentHash { buffer.append(parentHash) }
        for property in hashedProperties(of: entity.name) { buffer.append(property.hash) }
        if let modifier = entity.versionHashModifier { buffer.append(modifier) }
        for constraint in entity.uniquenessConstraints { buffer.append(constraint.joined(separator: ".")) }
        return buffer.sha256
    }

    /// The stored attributes and relationships an entity's hash covers, inherited ones
    /// included, in byte order of their names.
    func hashedProperties(of name: String) -> [(name: String, hash: Data)] {
        let attributes = attributes(of: name).filter { !$0.isTransient }.map { ($0.name, $0.versionHash) }
        let relationships = relationships(of: name).filter { !$0.isTransient }.map { ($0.name, $0.versionHash) }
        return (attributes + relationships).sorted { VersionHashBuffer.byteOrder($0.0, $1.0) }
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity name (in
    /// byte order) followed by its 32-byte hash.
    public static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted(by: VersionHashBuffer.byteOrder) {
            bytes.append(contentsOf: Array(name.utf8))
            bytes.append(hashes[name] ?? Data())
        }
        return Data(SHA2.sha512(Array(bytes))).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes in byte
    /// order of their names.
    public static func versionChecksum(_ hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted(by: VersionHashBuffer.byteOrder) {
            bytes.append(hashes[name] ?? Data())
        }
        return Data(SHA2.sha256(Array(bytes))).base64EncodedString()
    }
}

/// The bytes one version hash is computed over, in Core Data's encodings.
struct VersionHashBuffer {
    private var bytes: [UInt8] = []

    /// A string: its UTF-8 bytes, no terminator, no length.
    mutating func append(_ text: String) { bytes += Array(text.utf8) }
    /// A flag: one byte.
    mutating func append(_ flag: Bool) { bytes.append(flag ? 1 : 0) }
    /// A number: unsigned 32-bit little-endian.
    mutating func append(_ number: UInt32) { bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: number >> $0) } }
    /// Raw bytes (a nested hash).
    mutating func append(_ data: Data) { bytes += data }

    var sha256: Data { Data(SHA2.sha256(bytes)) }

    /// The part every property hash starts with: SHA-256 of name, optional, transient and
    /// the version hash modifier.
    static func propertyPart(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> Data {
        var buffer = VersionHashBuffer()
        buffer.append(name)
        buffer.append(isOptional)
        buffer.append(isTransient)
        if let modifier { buffer.append(modifier) }
        return buffer.sha256
    }

    /// Byte (UTF-8) order of names, the order Core Data sorts them in for its hashes.
    static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
