import Foundation

/// The SQL behind `StoreVerifier`: SQLite's own checks and the layout facts a release check
/// reads (key counters, entity numbers, `Z_OPT`, ordering keys, join rows). Each query
/// returns only what is wrong (or a few numbers), so a store of any size is checked
/// without loading it.
extension PersistentStore {
    /// The lines `PRAGMA integrity_check` reports (`["ok"]` for a sound file), at most `limit`.
    func integrityCheck(limit: Int = 20) throws(StoreError) -> [String] {
        do {
            return try connection.rows("PRAGMA integrity_check(\(max(1, limit)))").map { row in
                if case .text(let text)? = row.first { return text }
                return "\(row)"
            }
        } catch {
            throw .sqlite(error)
        }
    }

    /// `PRAGMA page_size`.
    func pageSize() throws(StoreError) -> Int {
        try scalarInteger("PRAGMA page_size")
    }

    /// The largest `Z_PK` of a table (0 when it is empty).
    func largestPrimaryKey(table: String) throws(StoreError) -> Int {
        try scalarInteger("SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)")
    }

    /// The entity numbers found in a table that are not among `allowed`, with how many rows
    /// carry each.
    func unexpectedEntityNumbers(table: String, allowed: [Int]) throws(StoreError) -> [(number: Int?, rows: Int)] {
        let filter = allowed.isEmpty ? "" : " WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(placeholders(allowed.count)))"
        return try pairs(
            "SELECT Z_ENT, COUNT(*) FROM \(table)\(filter) GROUP BY Z_ENT ORDER BY Z_ENT",
            allowed.map { .integer(Int64($0)) }
        ).map { (number: $0.0.map { Int($0) }, rows: Int($0.1 ?? 0)) }
    }

    /// How many rows of a table have a `Z_OPT` below 1 (or none).
    func rowsWithoutVersion(table: String) throws(StoreError) -> Int {
        try scalarInteger("SELECT COUNT(*) FROM \(table) WHERE Z_OPT IS NULL OR Z_OPT < 1")
    }

    /// How many rows of exactly these entity numbers a table holds.
    func rowCount(table: String, entityNumbers: [Int]) throws(StoreError) -> Int {
        try scalarInteger(
            "SELECT COUNT(*) FROM \(table) WHERE Z_ENT IN (\(placeholders(entityNumbers.count)))",
            entityNumbers.map { .integer(Int64($0)) })
    }

    /// Ordering keys of one owner's ordered members that are missing (the owner key set,
    /// the order key NULL) or shared by two members of the same owner: `(missing, shared)`.
    func orderingProblems(table: String, ownerColumn: String, orderColumn: String, entityNumbers: [Int]?) throws(StoreError) -> (missing: Int, duplicated: Int) {
        let filter = entityNumbers.map { " AND Z_ENT IN (\(placeholders($0.count)))" } ?? ""
        let arguments = (entityNumbers ?? []).map { SQLiteValue.integer(Int64($0)) }
        let missing = try scalarInteger(
            "SELECT COUNT(*) FROM \(table) WHERE \(ownerColumn) IS NOT NULL AND \(orderColumn) IS NULL\(filter)", arguments)
        let duplicated = try scalarInteger(
            """
            SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM \(table) \
            WHERE \(ownerColumn) IS NOT NULL AND \(orderColumn) IS NOT NULL\(filter) \
            GROUP BY \(ownerColumn), \(orderColumn) HAVING COUNT(*) > 1)
            """, arguments)
        return (missing, duplicated)
    }

    /// Join rows whose source row does not exist (the other side is `danglingJoinRows`):
    /// `(missing source key, destination key)`, at most `limit`.
    func joinRowsWithoutSource(_ join: JoinTable, sourceTable: String, limit: Int) throws(StoreError) -> [(Int64, Int64)] {
        try pairs(
            """
            SELECT j.\(join.sourceColumn), j.\(join.destinationColumn) FROM \(join.table) j \
            LEFT JOIN \(sourceTable) s ON s.Z_PK = j.\(join.sourceColumn) WHERE s.Z_PK IS NULL ORDER BY 1, 2 LIMIT \(limit)
            """
        ).map { ($0.0 ?? 0, $0.1 ?? 0) }
    }

    /// Calls `body` with each dangling to-one key of an entity's relationship at `index`:
    /// `(row, missing key)`. The validator's query, for the verifier.
    func forEachDanglingReference(_ mapping: EntityMapping, relationship index: Int, _ body: (Int64, Int64) throws -> Void) throws(StoreError) {
        try translatingErrors { try danglingReferences(mapping, relationship: index, body) }
    }

    /// Runs work that throws SQLite's or the store's errors as a `StoreError`.
    func translatingErrors(_ work: () throws -> Void) throws(StoreError) {
        do {
            try work()
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .malformedStore(path: path, reason: "\(error)")
        }
    }

    /// Calls `body` with each one-to-one whose destination does not point back:
    /// `(row, destination key, the destination's inverse key or nil)`.
    func forEachMismatchedInverse(_ mapping: EntityMapping, relationship index: Int, _ body: (Int64, Int64, Int64?) throws -> Void) throws(StoreError) {
        try translatingErrors { try mismatchedInverses(mapping, relationship: index, body) }
    }

    /// Calls `body` with each join row of a many-to-many whose destination does not exist:
    /// `(source key, missing destination key)`.
    func forEachDanglingJoinRow(_ relationship: RelationshipMapping, sourceTable: String, _ body: (Int64, Int64) throws -> Void) throws(StoreError) {
        try translatingErrors { try danglingJoinRows(relationship, sourceTable: sourceTable, body) }
    }

    /// The `Z_CONTENT` blobs of `Z_MODELCACHE` (none when the store has no such table).
    func modelCacheBlobs() throws(StoreError) -> [Data] {
        guard tableNames.contains("Z_MODELCACHE") else { return [] }
        do {
            return try sampler.modelCacheContents().compactMap { value in
                if case .blob(let data) = value { return data }
                return nil
            }
        } catch {
            throw .sqlite(error)
        }
    }

    /// The two bytes of the database header that say which journal the file was last
    /// written with: 1 for a rollback journal, 2 for write-ahead logging.
    func headerJournalVersions() -> (write: Int, read: Int)? {
        guard let handle = FileHandle(forReadingAtPath: resolvedPath) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return nil }
        return (Int(header[header.startIndex + 18]), Int(header[header.startIndex + 19]))
    }

    // MARK: - Pieces

    private func scalarInteger(_ sql: String, _ arguments: [SQLiteValue] = []) throws(StoreError) -> Int {
        do {
            return Int(try connection.scalar(sql, arguments)?.integer ?? 0)
        } catch {
            throw .sqlite(error)
        }
    }

    private func pairs(_ sql: String, _ arguments: [SQLiteValue] = []) throws(StoreError) -> [(Int64?, Int64?)] {
        do {
            return try connection.rows(sql, arguments).map { row in
                (row.first?.integer, row.count > 1 ? row[1].integer : nil)
            }
        } catch {
            throw .sqlite(error)
        }
    }
}
