import Foundation

/// Persistent history: the transaction and change rows Core Data writes for every save to a
/// store that tracks history (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`, entities
/// 16002, 16001 and 16003 of `Z_PRIMARYKEY`), and reading and purging them as Core Data's
/// `NSPersistentHistoryChangeRequest` does.
///
/// What a save writes, as the corpus store with history shows it: one `ATRANSACTION` row
/// (`Z_OPT` NULL, `ZTIMESTAMP` in seconds since 2001, the author, context name and process
/// name interned in `ATRANSACTIONSTRING` and pointed at by the `…TS` columns, the plain text
/// columns, `ZBUNDLEIDTS` and `ZQUERYGEN` NULL), then one `ACHANGE` row per object: inserts,
/// then updates, then deletes; `ZCOLUMNS` NULL except for updates (see ``HistoryColumns``).
/// Keys come from each entity's `Z_MAX`, which is raised. Where a detail is not established
/// (an update's `ZCOLUMNS` for some entities, tombstones), the save is refused.
extension PersistentStore {
    /// One object's change, as a save hands it to ``recordHistory(_:author:contextName:)``.
    struct HistoryEntry {
        let changeType: HistoryChange.ChangeType
        let mapping: EntityMapping
        let primaryKey: Int64
        /// For an update, the names of the properties it changed.
        let changedKeys: [String]
    }

    /// The history tables' entity numbers in `Z_PRIMARYKEY`.
    private struct HistoryEntities {
        let change: Int
        let transaction: Int
        let string: Int
    }

    private static let historyTables = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]

    /// Whether the store tracks persistent history: Core Data made its history tables.
    public var keepsHistory: Bool {
        Self.historyTables.contains { schema.table($0) != nil }
    }

    /// Appends the history of one save, inside the save's transaction (so both commit or
    /// neither). Does nothing for a store without history tables.
    func recordHistory(_ entries: [HistoryEntry], author: String?, contextName: String?) throws {
        guard keepsHistory, !entries.isEmpty else { return }
        let entities: HistoryEntities
        do {
            entities = try historyEntities()
        } catch HistoryError.malformedHistory(_, let reason) {
            throw HistoryError.cannotRecord(path: path, reason: "its history tables are not as Core Data makes them (\(reason))")
        }
        let columns = try updatedColumns(entries)
        let transaction = try nextHistoryKeys(entities.transaction, table: "ATRANSACTION", count: 1)
        let processName = ProcessInfo.processInfo.processName
        try connection.cachedStatement("""
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP, \
            ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN) VALUES (?, ?, NULL, ?, NULL, ?, ?, ?, NULL, NULL, NULL, NULL, NULL)
            """).execute([
                .integer(transaction), .integer(Int64(entities.transaction)),
                try internedString(author, entities), try internedString(contextName, entities),
                try internedString(processName.isEmpty ? nil : processName, entities),
                .real(Date().timeIntervalSinceReferenceDate),
            ])
        var key = try nextHistoryKeys(entities.change, table: "ACHANGE", count: entries.count)
        let insert = try connection.cachedStatement(
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)")
        for (index, entry) in entries.enumerated() {
            try insert.execute([
                .integer(key), .integer(Int64(entities.change)), .integer(entry.changeType.rawValue),
                .integer(Int64(entry.mapping.number)), .integer(entry.primaryKey), .integer(transaction),
                columns[index].map { SQLiteValue.blob(Data($0)) } ?? .null,
            ])
            key += 1
        }
    }

    /// Each entry's `ZCOLUMNS` (nil but for updates), or the refusal of the first entry
    /// whose history is not established.
    private func updatedColumns(_ entries: [HistoryEntry]) throws -> [[UInt8]?] {
        var orders: [Int: [String]] = [:]
        return try entries.map { entry -> [UInt8]? in
            switch entry.changeType {
            case .insert:
                return nil
            case .delete:
                let preserved = entry.mapping.attributes.filter(\.attribute.preservesValueInHistoryOnDeletion).map(\.attribute.name)
                if !preserved.isEmpty {
                    throw HistoryError.cannotRecord(path: path, reason: "deleting \(entry.mapping.name) \(entry.primaryKey) needs tombstone values of \(preserved.joined(separator: ", ")) (preserved after deletion), and which ZTOMBSTONE column holds which value is not established")
                }
                return nil
            case .update:
                if orders[entry.mapping.number] == nil {
                    switch HistoryColumns.order(of: entry.mapping) {
                    case .success(let order): orders[entry.mapping.number] = order
                    case .failure(let unestablished):
                        throw HistoryError.cannotRecord(path: path, reason: "updating \(entry.mapping.name) \(entry.primaryKey): \(unestablished.reason)")
                    }
                }
                return HistoryColumns.encode(entry.changedKeys, order: orders[entry.mapping.number] ?? [])
            }
        }
    }

    /// The history entities' numbers, checked against the tables the store has.
    private func historyEntities() throws -> HistoryEntities {
        let required: [String: [String]] = [
            "ACHANGE": ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"],
            "ATRANSACTION": ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS", "ZTIMESTAMP",
                             "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"],
            "ATRANSACTIONSTRING": ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"],
        ]
        for (table, columns) in required.sorted(by: { $0.key < $1.key }) {
            guard let found = schema.table(table) else {
                throw HistoryError.malformedHistory(path: path, reason: "table \(table) is missing beside the other history tables")
            }
            let missing = columns.filter { found.column($0) == nil }
            if !missing.isEmpty {
                throw HistoryError.malformedHistory(path: path, reason: "table \(table) has no column \(missing.joined(separator: ", "))")
            }
        }
        var numbers: [String: Int] = [:]
        for row in try connection.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") {
            if case .integer(let number) = row[0], case .text(let name) = row[1] { numbers[name.uppercased()] = Int(number) }
        }
        func number(_ name: String) throws -> Int {
            guard let number = numbers[name] else {
                throw HistoryError.malformedHistory(path: path, reason: "Z_PRIMARYKEY has no row named \(name) (Core Data's is numbered above 16000)")
            }
            return number
        }
        return HistoryEntities(change: try number("CHANGE"), transaction: try number("TRANSACTION"), string: try number("TRANSACTIONSTRING"))
    }

    /// `count` new keys of a history entity, from its `Z_MAX` (raised to the last), above
    /// any key its table holds.
    private func nextHistoryKeys(_ entity: Int, table: String, count: Int) throws -> Int64 {
        let storedValue = try connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(entity))]) ?? .null
        let topValue = try connection.scalar("SELECT MAX(Z_PK) FROM \(table)") ?? .null
        guard let stored = storedValue == .null ? 0 : storedValue.integer, let top = topValue == .null ? 0 : topValue.integer,
            max(stored, top) <= Int64.max - Int64(count)
        else {
            throw HistoryError.malformedHistory(path: path, reason: "the key counter of \(table) (Z_MAX of Z_ENT \(entity), or its largest Z_PK) is not a number with room for \(count) more")
        }
        let start = max(stored, top) + 1
        try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            .execute([.integer(start + Int64(count) - 1), .integer(Int64(entity))])
        return start
    }

    /// The key of `text` in `ATRANSACTIONSTRING`, added when it is not there yet; NULL for nil.
    private func internedString(_ text: String?, _ entities: HistoryEntities) throws -> SQLiteValue {
        guard let text else { return .null }
        if let key = try connection.scalar("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", [.text(text)])?.integer {
            return .integer(key)
        }
        let key = try nextHistoryKeys(entities.string, table: "ATRANSACTIONSTRING", count: 1)
        try connection.cachedStatement("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)")
            .execute([.integer(key), .integer(Int64(entities.string)), .text(text)])
        return .integer(key)
    }
}
