import Foundation

/// A way a store differs from what Core Data writes, with how many columns, rows, values or
/// files it concerns: what a store made by hand (a CSV import, a script) or damaged holds,
/// and what a support folder lacks or has to spare. None stops a read; each is a warning.
///
/// ```swift
/// for anomaly in try store.storageAnomalies() { print("warning: \(anomaly)") }
/// // warning: ZBOOK.ZPRICE: declares no type; Core Data declares FLOAT for Book.price (Float)
/// // warning: ZBOOK.Z_PK: 3 values stored as text; Core Data writes integer
/// ```
public struct StorageAnomaly: Sendable, Hashable, CustomStringConvertible {
    /// What kind of difference it is.
    public enum Kind: String, Sendable, Hashable {
        /// A column declares another type than Core Data declares for it.
        case columnType
        /// Values are stored in another storage class than Core Data writes.
        case storageClass
        /// `Z_MAX` is below the largest `Z_PK` of the entity's table.
        case primaryKeyMax
        /// Rows whose `Z_ENT` is no entity of their table.
        case unknownEntity
        /// References to external data files that are not there.
        case missingExternalFile
        /// References to external data files that are there but are not read: a symbolic
        /// link, a FIFO, a device or a directory, a file too large (see ``ExternalDataProblem``).
        case unreadableExternalFile
        /// Files in `_EXTERNAL_DATA` that no row references.
        case orphanExternalFile
    }

    /// What kind of difference it is.
    public var kind: Kind
    /// How many columns, values, rows or files it concerns.
    public var count: Int
    /// Where and what, in words.
    public var message: String

    public var description: String { message }
}

extension PersistentStore {
    /// The store's storage anomalies (see ``StorageAnomaly``), table by table in entity
    /// order, then the support folder's. Reads the store, changes nothing.
    public func storageAnomalies() throws(StoreError) -> [StorageAnomaly] {
        do {
            var found: [StorageAnomaly] = []
            var referenced = Set<String>()
            for root in allMappings where root.superNumber == 0 {
                found += try tableAnomalies(root)
                found += try externalReferenceAnomalies(root, referenced: &referenced)
            }
            found += try orphanFiles(referenced: referenced)
            return found
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .fileSystemError(path: supportFolder.path, operation: "check the store's storage", reason: "\(error)")
        }
    }

    /// Column types, storage classes, `Z_MAX` and `Z_ENT` of one inheritance root's table.
    private func tableAnomalies(_ root: EntityMapping) throws -> [StorageAnomaly] {
        let table = root.table
        guard let declared = schema.table(table) else { return [] }
        var found: [StorageAnomaly] = []
        // Each column once, with the attribute that owns it (keys are INTEGER).
        var columns: [(column: String, type: AttributeType, owner: String)] = [("Z_PK", .integer64, "Z_PK"), ("Z_ENT", .integer64, "Z_ENT"), ("Z_OPT", .integer64, "Z_OPT")]
        var seen = Set(columns.map(\.column))
        for mapping in family(of: root) {
            for attribute in mapping.attributes {
                guard let column = attribute.column, seen.insert(column.uppercased()).inserted else { continue }
                columns.append((column, attribute.attribute.type, "\(mapping.name).\(attribute.attribute.name) (\(attribute.attribute.type.xcodeName))"))
            }
            for case .foreignKey(let column, _, _) in mapping.relationships.map(\.storage) where seen.insert(column.uppercased()).inserted {
                columns.append((column, .integer64, "\(mapping.name)'s to-one key"))
            }
        }
        for (column, type, owner) in columns {
            guard let actual = declared.column(column) else { continue }
            if actual.declaredType.uppercased() != type.columnType {
                let what = actual.declaredType.isEmpty ? "declares no type" : "declares \(actual.declaredType)"
                found.append(StorageAnomaly(kind: .columnType, count: 1, message: "\(table).\(column): \(what); Core Data declares \(type.columnType) for \(owner)"))
            }
            let written = Self.storageClasses(type)
            let list = written.map { "'\($0)'" }.joined(separator: ", ")
            for row in try connection.rows("SELECT typeof(\(column)), COUNT(*) FROM \(table) WHERE typeof(\(column)) NOT IN ('null', \(list)) GROUP BY 1 ORDER BY 1") {
                guard case .text(let storage) = row[0], case .integer(let count) = row[1] else { continue }
                found.append(StorageAnomaly(
                    kind: .storageClass, count: Int(count),
                    message: "\(table).\(column): \(count) value\(count == 1 ? "" : "s") stored as \(storage); Core Data writes \(written.joined(separator: " or ")) for \(owner)"))
            }
        }
        if let record = primaryKeyEntries[root.number], case .integer(let top)? = try connection.scalar("SELECT MAX(\(root.keys.integer("Z_PK"))) FROM \(table)"), record.max < top {
            found.append(StorageAnomaly(kind: .primaryKeyMax, count: 1, message: "Z_PRIMARYKEY: Z_MAX of \(root.name) is \(record.max), below the largest Z_PK \(top) of \(table)"))
        }
        let numbers = family(of: root).map(\.number)
        let entities = root.keys.integer("Z_ENT")
        let unknown = try connection.rows(
            "SELECT \(entities), COUNT(*) FROM \(table) WHERE \(entities) NOT IN (\(placeholders(numbers.count))) OR Z_ENT IS NULL GROUP BY 1 ORDER BY 1",
            numbers.map { .integer(Int64($0)) })
        for row in unknown {
            guard case .integer(let count) = row[1] else { continue }
            let value = row[0] == .null ? "NULL" : "\(row[0].integer.map(String.init) ?? "?")"
            let effect = root.isAloneInTable
                ? "Core Data reads them as \(root.name) objects all the same (it does not read Z_ENT of an entity alone in its table)"
                : "invisible to Core Data (no entity to make an object of)"
            found.append(StorageAnomaly(kind: .unknownEntity, count: Int(count), message: "\(table): \(count) row\(count == 1 ? "" : "s") with Z_ENT \(value), no entity of the table; \(effect)"))
        }
        return found
    }

    /// The storage classes Core Data's values of a type are stored in (a whole-valued date
    /// is kept as an integer by TIMESTAMP's affinity).
    private static func storageClasses(_ type: AttributeType) -> [String] {
        switch ColumnAccessor(type) {
        case .int64: ["integer"]
        case .double: type == .decimal ? ["integer", "real", "text"] : ["real", "integer"]
        case .text: ["text"]
        case .blob: ["blob"]
        }
    }

    /// The names of the external data files the store's rows reference.
    func referencedExternalDataFiles() throws(StoreError) -> Set<String> {
        do {
            var referenced = Set<String>()
            for root in allMappings where root.superNumber == 0 {
                try forEachExternalReference(root) { _, reference in referenced.insert(reference.name) }
            }
            return referenced
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .fileSystemError(path: supportFolder.path, operation: "list the store's external data files", reason: "\(error)")
        }
    }

    /// Calls `body` with each external data reference of one table's external-storage
    /// columns (each column once, however many entities share it), column by column.
    private func forEachExternalReference(_ root: EntityMapping, _ body: (String, ExternalDataReference) throws -> Void) throws {
        var seen = Set<String>()
        for mapping in family(of: root) {
            for attribute in mapping.attributes where attribute.allowsExternalStorage {
                guard let column = attribute.column, seen.insert(column.uppercased()).inserted else { continue }
                let rows = try connection.rows("SELECT \(column) FROM \(root.table) WHERE substr(\(column), 1, 1) = x'02' AND typeof(\(column)) = 'blob'")
                for row in rows {
                    guard case .blob(let blob) = row[0], case .deferred(let value) = ExternalBinaryData.decode(blob, as: attribute.attribute.type, in: supportFolder),
                        let reference = value.externalReference
                    else { continue }
                    try body(column, reference)
                }
            }
        }
    }

    /// References of one table's external-storage columns whose files are missing, or are
    /// not read (by name, see ``ExternalDataProblem``); adds every referenced name to
    /// `referenced`.
    private func externalReferenceAnomalies(_ root: EntityMapping, referenced: inout Set<String>) throws -> [StorageAnomaly] {
        var found: [StorageAnomaly] = []
        var missing: [String: Int] = [:]
        var unreadable: [String: [ExternalDataProblem: [String]]] = [:]
        var columns: [String] = []
        try forEachExternalReference(root) { column, reference in
            if !columns.contains(column) { columns.append(column) }
            referenced.insert(reference.name)
            switch reference.problem() {
            case nil: break
            case .missing: missing[column, default: 0] += 1
            case let problem?: unreadable[column, default: [:]][problem, default: []].append(reference.name)
            }
        }
        for column in columns {
            if let count = missing[column] {
                found.append(StorageAnomaly(
                    kind: .missingExternalFile, count: count,
                    message: "\(root.table).\(column): \(count) reference\(count == 1 ? "" : "s") to external data files missing from \(supportFolder.externalDataPath)"))
            }
            for (problem, names) in (unreadable[column] ?? [:]).sorted(by: { $0.key.description < $1.key.description }) {
                let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
                let subject = names.count == 1 ? "external data file \(shown)" : "\(names.count) external data files (\(shown)) each"
                found.append(StorageAnomaly(
                    kind: .unreadableExternalFile, count: names.count,
                    message: "\(root.table).\(column): \(subject) \(problem), in \(supportFolder.externalDataPath); the value is not read"))
            }
        }
        return found
    }

    /// Files of `_EXTERNAL_DATA` that no row references (a file being written, named
    /// `.<UUID>.partial`, included: one left by a write that was cut short).
    private func orphanFiles(referenced: Set<String>) throws -> [StorageAnomaly] {
        let orphans = try supportFolder.externalDataFileNames().filter { !referenced.contains($0) }
        guard !orphans.isEmpty else { return [] }
        let shown = orphans.prefix(3).joined(separator: ", ") + (orphans.count > 3 ? ", …" : "")
        return [StorageAnomaly(
            kind: .orphanExternalFile, count: orphans.count,
            message: "\(supportFolder.externalDataPath): \(orphans.count) file\(orphans.count == 1 ? "" : "s") no row references (\(shown))")]
    }
}
