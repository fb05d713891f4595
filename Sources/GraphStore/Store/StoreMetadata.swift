import Foundation

/// The store's `Z_METADATA` row: its UUID and the metadata property list.
///
/// ```swift
/// store.metadata.uuid                        // "6EB956E1-E464-49EE-84CB-435A6A51E7EC"
/// store.metadata.frameworkVersion            // 519
/// store.metadata.versionHashes["Book"]       // 32 bytes
/// ```
public struct StoreMetadata: @unchecked Sendable {
    /// `Z_UUID`: the store's identifier, which object-ID URIs carry.
    public var uuid: String
    /// The decoded `Z_PLIST` dictionary (property-list values: String, Int, Data, arrays, dictionaries).
    public var properties: [String: Any]

    /// `NSStoreType`, normally `SQLite`.
    public var storeType: String? { properties["NSStoreType"] as? String }
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last wrote the metadata.
    public var frameworkVersion: Int? { (properties["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue }
    /// `NSStoreModelVersionHashes`: entity name to 32-byte version hash.
    public var versionHashes: [String: Data] {
        (properties["NSStoreModelVersionHashes"] as? [String: Any])?.compactMapValues { $0 as? Data } ?? [:]
    }
    /// `NSStoreModelVersionIdentifiers`.
    public var versionIdentifiers: [String] {
        (properties["NSStoreModelVersionIdentifiers"] as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// The metadata keys, sorted.
    public var keys: [String] { properties.keys.sorted() }

    /// The framework version GraphStore writes: the Core Data release whose layout it follows.
    public static let writtenFrameworkVersion = 1345

    /// Metadata for a new store of this model.
    init(newStoreFor model: ManagedObjectModel) {
        let hashes = model.entityVersionHashes
        uuid = UUID().uuidString
        properties = [
            "NSStoreType": "SQLite",
            "NSPersistenceFrameworkVersion": StoreMetadata.writtenFrameworkVersion,
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": model.versionIdentifiers,
            "NSStoreModelVersionHashesDigest": ManagedObjectModel.versionHashesDigest(hashes),
            "NSStoreModelVersionChecksumKey": ManagedObjectModel.versionChecksum(hashes),
            "_NSAutoVacuumLevel": "2",
        ]
    }

    /// The metadata of a store migrated to `model`: the version keys are the model's, the
    /// UUID (which object IDs carry) and every other key are the old store's.
    init(migrating old: StoreMetadata, to model: ManagedObjectModel) {
        self.init(newStoreFor: model)
        uuid = old.uuid
        for (key, value) in old.properties where properties[key] == nil { properties[key] = value }
    }

    /// Reads the metadata row of an open store; `failure` names the errors that have a
    /// cause of their own (a lock, a damaged file).
    init(reading connection: Connection, path: String, failure: (SQLiteError) -> StoreError? = { _ in nil }) throws(StoreError) {
        let rows: [[SQLiteValue]]
        do {
            rows = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        } catch {
            throw failure(error) ?? .malformedStore(path: path, reason: "Z_METADATA cannot be read: \(error.message)")
        }
        guard let row = rows.first else { throw .malformedStore(path: path, reason: "Z_METADATA has no row") }
        uuid = if case .text(let text) = row[0] { text } else { "" }
        guard case .blob(let plist) = row[1] else {
            properties = [:]
            return
        }
        // Read with GraphStore's own checked reader: Foundation's can crash on damaged bytes.
        guard BinaryPropertyList.isBinary(plist) else {
            throw .malformedStore(path: path, reason: "Z_METADATA.Z_PLIST is not a binary property list")
        }
        do {
            guard case .dictionary(let fields) = try BinaryPropertyList.parse(plist) else {
                throw StoreError.malformedStore(path: path, reason: "Z_METADATA.Z_PLIST is not a dictionary")
            }
            properties = fields.mapValues(\.foundationValue)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .malformedStore(path: path, reason: "Z_METADATA.Z_PLIST is damaged (\(error))")
        }
    }

    /// The binary property list written to `Z_PLIST`.
    func encodedProperties() throws(StoreError) -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: properties, format: .binary, options: 0)
        } catch {
            throw .malformedStore(path: "", reason: "metadata cannot be encoded: \(error)")
        }
    }
}
