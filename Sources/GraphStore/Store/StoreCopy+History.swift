/// Carrying a store's persistent history (`NSPersistentHistoryTrackingKey`) into a migrated
/// store: the tables `ATRANSACTION`, `ATRANSACTIONSTRING` and `ACHANGE` and their
/// `Z_PRIMARYKEY` rows (entity numbers from 16001). An app holds history tokens (transaction
/// keys) across launches, so a migration that dropped the history would leave it unable to
/// catch up on changes.
///
/// The tables are made from the source's own `CREATE` statements (their columns belong to
/// the framework, tombstone columns included) and copied row for row, keys kept. A change's
/// `ZENTITY` names an entity by number, and numbers shift between versions: it is
/// translated to the number of the entity the objects became, and the changes of objects
/// whose entity has no destination are left out (their objects are not migrated).
/// `ZCOLUMNS` (which properties a change touched) is kept as it is.
extension PersistentStore {
    /// The tables of Core Data's persistent history.
    static let historyTables = ["ATRANSACTIONSTRING", "ATRANSACTION", "ACHANGE"]

    /// Copies the attached source's (`src`) history tables, if it has any, with entity
    /// numbers translated by `translation` (a `CASE` over the source number, NULL when the
    /// entity has no destination).
    func copyHistory(translation: (String) -> String) throws {
        let names = Self.historyTables.map { "'\($0)'" }.joined(separator: ", ")
        let present = try connection.rows(
            "SELECT name, sql FROM src.sqlite_master WHERE type = 'table' AND name IN (\(names))")
        guard !present.isEmpty else { return }
        var tables: Set<String> = []
        for row in present {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            try connection.execute(sql)
            tables.insert(name)
        }
        let indexes = try connection.rows(
            "SELECT sql FROM src.sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (\(names))")
        for row in indexes {
            if case .text(let sql) = row[0] { try connection.execute(sql) }
        }
        for table in Self.historyTables where tables.contains(table) {
            if table == "ACHANGE" {
                try copyChanges(translation: translation)
            } else {
                try connection.execute("INSERT INTO \(table) SELECT * FROM src.\(table)")
            }
        }
        try connection.execute(
            "INSERT OR REPLACE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM src.Z_PRIMARYKEY WHERE Z_ENT > 16000")
    }

    /// `ACHANGE` with `ZENTITY` translated; changes of entities with no destination dropped.
    private func copyChanges(translation: (String) -> String) throws {
        let columns = try connection.rows("SELECT name FROM pragma_table_info('ACHANGE', 'src')").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        guard columns.contains("ZENTITY") else {
            try connection.execute("INSERT INTO ACHANGE SELECT * FROM src.ACHANGE")
            return
        }
        let quoted = columns.map { "\"\($0)\"" }
        let expressions = columns.map { $0 == "ZENTITY" ? translation("ZENTITY") : "\"\($0)\"" }
        try connection.execute("""
            INSERT INTO ACHANGE (\(quoted.joined(separator: ", ")))
            SELECT \(expressions.joined(separator: ", ")) FROM src.ACHANGE WHERE \(translation("ZENTITY")) IS NOT NULL
            """)
    }
}
