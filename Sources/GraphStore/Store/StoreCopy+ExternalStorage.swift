import Foundation

/// The external data files of a migration whose model changes "Allows External Storage",
/// or whose mapping model writes values of such attributes: the folder the migrated
/// store's files are read from and written to, the files written for it, and the files it
/// no longer names (values brought back into the table, or copied into new files by a
/// mapping model's step).
///
/// In a real run the folder is the original store's own (the migrated file takes the
/// original's name, and so its folder): files written for the new store sit there beside
/// the old store's, which no row of the old store names (an orphan is harmless, a dangling
/// reference is not). The files the new store no longer names are removed only once it is
/// in place (the backup keeps a copy), and the files written are removed when the
/// migration fails.
final class ExternalStorageMove {
    /// Writes the new store's files, synced before the rows that name them are committed.
    let files: ExternalDataFiles
    /// Files the migrated store does not name: values brought back into the table, or
    /// named only by the store a mapping model's step read.
    private(set) var released: Set<String> = []

    /// Rows read and rewritten per transaction: each holds one value, which may be large.
    static let batchSize = 16

    init(folder: StoreSupportFolder) {
        files = ExternalDataFiles(folder: folder)
    }

    var folder: StoreSupportFolder { files.folder }

    /// The names of the files written for the migrated store.
    var written: [String] { files.writtenNames }

    /// Files a step's source named and its destination does not: they go once the migrated
    /// store is in place.
    func release(_ names: Set<String>) {
        released.formUnion(names)
    }

    /// A blob of an attribute that did not allow external storage, as a save of the new
    /// model writes it: a value above ``PersistentStore/externalDataThreshold`` to a new
    /// file (synced), a smaller one inline.
    func externalForm(of bytes: Data) throws(StoreError) -> Data {
        bytes.count > PersistentStore.externalDataThreshold
            ? ExternalBinaryData.encodeReference(try files.write(bytes)) : ExternalBinaryData.encodeInline(bytes)
    }

    /// A blob of an attribute that allowed external storage, as raw bytes: a reference's
    /// file is read from ``folder``; a file missing or unreadable is an error, never an
    /// empty value.
    func rawForm(of blob: Data, entity: String, primaryKey: Int64, key: String, column: String, type: AttributeType) throws(StoreError) -> Data {
        switch ExternalBinaryData.decode(blob, as: type, in: folder) {
        case .value(.data(let bytes)): return bytes
        case .value: return blob
        case .deferred(let deferred):
            guard let reference = deferred.externalReference else {
                throw .malformedValue(
                    entity: entity, primaryKey: primaryKey, key: key, column: column,
                    found: "a reference that names no file of \(folder.externalDataPath)", expected: type.xcodeName)
            }
            switch reference.contents() {
            case .success(let bytes):
                released.insert(reference.name)
                return bytes
            case .failure(.missing):
                throw .externalDataMissing(entity: entity, primaryKey: primaryKey, key: key, file: reference.path)
            case .failure(let problem):
                throw .externalDataUnreadable(entity: entity, primaryKey: primaryKey, key: key, file: reference.path, problem: problem)
            }
        }
    }
}

extension PersistentStore {
    /// Rewrites, in this (migrated) store, the values of `target`'s objects whose attribute
    /// changed "Allows External Storage" from the source's attribute: into the external
    /// form when it is now allowed, back to raw bytes when it no longer is.
    ///
    /// This is the one place a migration touches values row by row in Swift: SQL cannot
    /// write or read the files, so the copied blobs are read back and rewritten in batches
    /// of ``ExternalStorageMove/batchSize`` rows, one transaction each, which keeps memory
    /// bounded however many rows (each batch's files are synced before its COMMIT).
    func moveExternalValues(_ entity: StoreCopyPlan.Entity, of target: EntityMapping, from source: EntityMapping, move: ExternalStorageMove) throws {
        for attribute in target.attributes {
            guard let column = attribute.column, let origin = entity.attributes[attribute.attribute.name] else { continue }
            let wasExternal = origin.source.flatMap { source.attribute(named: $0) }?.allowsExternalStorage ?? false
            guard wasExternal != attribute.allowsExternalStorage else { continue }
            let select = "SELECT Z_PK, \(column) FROM \(target.table) WHERE Z_ENT = ? AND Z_PK > ? AND typeof(\(column)) = 'blob' ORDER BY Z_PK LIMIT ?"
            let update = try connection.prepare("UPDATE \(target.table) SET \(column) = ? WHERE Z_PK = ?")
            var last = Int64.min
            while true {
                let rows = try connection.rows(select, [.integer(Int64(target.number)), .integer(last), .integer(Int64(ExternalStorageMove.batchSize))])
                guard let final = rows.last, case .integer(let key) = final[0] else { break }
                try connection.transaction {
                    for row in rows {
                        guard case .integer(let primaryKey) = row[0], case .blob(let blob) = row[1] else { continue }
                        let moved = attribute.allowsExternalStorage
                            ? try move.externalForm(of: blob)
                            : try move.rawForm(
                                of: blob, entity: target.name, primaryKey: primaryKey, key: attribute.attribute.name, column: column,
                                type: attribute.attribute.type)
                        try update.execute([.blob(moved), .integer(primaryKey)])
                    }
                }
                last = key
            }
        }
    }
}
