import Foundation

/// Reading and purging persistent history, as Core Data's `NSPersistentHistoryChangeRequest`
/// does (`fetchHistory(after:)`, `deleteHistory(before:)`).
///
/// ```swift
/// let transactions = try store.fetchHistory(after: lastToken)
/// for change in transactions.flatMap(\.changes) { print(change.changeType, change.objectID as Any) }
/// if let newest = transactions.last?.token {
///     try store.deleteHistory(before: newest)      // keeps the newest transaction
///     lastToken = newest
/// }
/// ```
extension PersistentStore {
    /// The transactions saved after the one `token` stands for (all of them for nil), oldest
    /// first, each with its changes. Throws ``HistoryError/notKept(path:)`` for a store
    /// without history tables.
    public func fetchHistory(after token: HistoryToken?) throws -> [HistoryTransaction] {
        try readHistory(where: "t.Z_PK > ?", .integer(token?.transactionNumber ?? Int64.min))
    }

    /// The transactions saved after `date`, oldest first, each with its changes.
    public func fetchHistory(after date: Date) throws -> [HistoryTransaction] {
        try readHistory(where: "t.ZTIMESTAMP > ?", .real(date.timeIntervalSinceReferenceDate))
    }

    /// Deletes the transactions (and their changes) saved before the one `token` stands
    /// for, which stays, and returns how many transactions went. Interned strings stay.
    @discardableResult
    public func deleteHistory(before token: HistoryToken) throws -> Int {
        try deleteHistory(where: "Z_PK < ?", .integer(token.transactionNumber))
    }

    /// Deletes the transactions (and their changes) saved before `date` and returns how
    /// many went.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try deleteHistory(where: "ZTIMESTAMP < ?", .real(date.timeIntervalSinceReferenceDate))
    }

    private func deleteHistory(where condition: String, _ bound: SQLiteValue) throws -> Int {
        guard keepsHistory else { throw HistoryError.notKept(path: path) }
        return try transaction {
            try connection.prepare("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition))").execute([bound])
            try connection.prepare("DELETE FROM ATRANSACTION WHERE \(condition)").execute([bound])
            return connection.changes
        }
    }

    private func readHistory(where condition: String, _ bound: SQLiteValue) throws -> [HistoryTransaction] {
        guard keepsHistory else { throw HistoryError.notKept(path: path) }
        func text(_ column: String) -> String {
            "COALESCE((SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.Z\(column)TS), t.Z\(column))"
        }
        var transactions: [HistoryTransaction] = []
        var positions: [Int64: Int] = [:]
        for row in try connection.rows(
            "SELECT t.Z_PK, t.ZTIMESTAMP, \(text("AUTHOR")), \(text("BUNDLEID")), \(text("PROCESSID")), \(text("CONTEXTNAME")) FROM ATRANSACTION t WHERE \(condition) ORDER BY t.Z_PK",
            [bound])
        {
            let number = try historyInteger(row[0], "ATRANSACTION", "Z_PK", row: "?")
            guard case let seconds? = row[1].seconds else {
                throw HistoryError.malformedHistory(path: path, reason: "ATRANSACTION row \(number): ZTIMESTAMP is \(row[1].shownAsFound), not a number of seconds")
            }
            positions[number] = transactions.count
            transactions.append(HistoryTransaction(
                number: number, timestamp: Date(timeIntervalSinceReferenceDate: seconds), author: row[2].textValue,
                bundleID: row[3].textValue, processID: row[4].textValue, contextName: row[5].textValue, changes: []))
        }
        guard !transactions.isEmpty else { return [] }
        var orders: [Int: [String]?] = [:]
        for row in try connection.rows(
            "SELECT c.Z_PK, c.ZTRANSACTIONID, c.ZCHANGETYPE, c.ZENTITY, c.ZENTITYPK, c.ZCOLUMNS FROM ACHANGE c JOIN ATRANSACTION t ON t.Z_PK = c.ZTRANSACTIONID WHERE \(condition) ORDER BY c.ZTRANSACTIONID, c.Z_PK",
            [bound])
        {
            let number = try historyInteger(row[0], "ACHANGE", "Z_PK", row: "?")
            let rowName = "\(number)"
            guard let position = positions[try historyInteger(row[1], "ACHANGE", "ZTRANSACTIONID", row: rowName)] else { continue }
            let typeNumber = try historyInteger(row[2], "ACHANGE", "ZCHANGETYPE", row: rowName)
            guard let changeType = HistoryChange.ChangeType(rawValue: typeNumber) else {
                throw HistoryError.malformedHistory(path: path, reason: "ACHANGE row \(number): ZCHANGETYPE \(typeNumber) is none of 0 (insert), 1 (update), 2 (delete)")
            }
            let entity = try historyInteger(row[3], "ACHANGE", "ZENTITY", row: rowName)
            let primaryKey = try historyInteger(row[4], "ACHANGE", "ZENTITYPK", row: rowName)
            let mapping = Int(exactly: entity).flatMap { self.mapping(number: $0) }
            var raw: [UInt8]?
            if case .blob(let data) = row[5] { raw = Array(data) }
            var updated: [String]?
            if let raw, let mapping {
                if orders[mapping.number] == nil { orders.updateValue(try? HistoryColumns.order(of: mapping).get(), forKey: mapping.number) }
                updated = (orders[mapping.number] ?? nil).flatMap { HistoryColumns.decode(raw, order: $0) }
            }
            transactions[position].changes.append(HistoryChange(
                number: number, changeType: changeType, entityNumber: Int(truncatingIfNeeded: entity), entityName: mapping?.name,
                primaryKey: primaryKey, objectID: mapping.map { objectID($0, primaryKey: primaryKey) }, updatedProperties: updated, rawColumns: raw))
        }
        return transactions
    }

    /// A whole number read from a history table, or the error naming where it is not one.
    private func historyInteger(_ value: SQLiteValue, _ table: String, _ column: String, row: String) throws -> Int64 {
        guard case .integer(let number) = value else {
            throw HistoryError.malformedHistory(path: path, reason: "\(table) row \(row): \(column) is \(value.shownAsFound), not a whole number")
        }
        return number
    }
}

private extension SQLiteValue {
    /// A timestamp's seconds: an integer or real, finite.
    var seconds: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value) where value.isFinite: value
        default: nil
        }
    }

    /// Text, or nil.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
