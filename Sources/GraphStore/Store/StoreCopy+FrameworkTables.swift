/// Carrying the framework's own tables into a migrated store: those of the entities Core
/// Data keeps for itself, numbered from 16001 in `Z_PRIMARYKEY` with their table named `A`
/// + `Z_NAME` — persistent history (`ATRANSACTION`, `ATRANSACTIONSTRING`, `ACHANGE`) and any
/// other (CloudKit mirroring keeps its records' metadata so). An app holds history tokens
/// (transaction keys) across launches, so a migration that dropped the history would leave
/// it unable to catch up on changes.
///
/// The tables are made from the source's own `CREATE` statements (their columns belong to
/// the framework, tombstone columns included) and copied row for row, keys kept, with their
/// `Z_PRIMARYKEY` rows. A history change's `ZENTITY` names an entity by number, and numbers
/// shift between versions: it is translated to the number of the entity the objects became,
/// and the changes of objects whose entity has no destination are left out (their objects
/// are not migrated). `ZCOLUMNS` (which properties a change touched) is kept as it is, and
/// so is every column of the other framework tables.
extension PersistentStore {
    /// The tables of the framework's own entities in this store (`A` + `Z_NAME` in capitals,
    /// of each `Z_PRIMARYKEY` row numbered above 16000), in `Z_ENT` order, as the file
    /// spells them.
    var frameworkTables: [String] {
        var present: [String: String] = [:]
        for table in schema.tables.values { present[table.name.uppercased()] = table.name }
        return primaryKeyEntries.values.filter { $0.number > 16000 }.sorted { $0.number < $1.number }
            .compactMap { present["A" + $0.name.uppercased()] }
    }

    /// The tables of the file that neither the model (entity and join tables), nor the
    /// store's bookkeeping (`Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`), nor the
    /// framework's own entities account for: a migration does not carry them.
    var tablesOutsideTheModel: [String] {
        var known: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
        known.formUnion(frameworkTables.map { $0.uppercased() })
        for mapping in allMappings {
            known.insert(mapping.table.uppercased())
            for relationship in mapping.relationships {
                if case .joinTable(let join) = relationship.storage { known.insert(join.table.uppercased()) }
            }
        }
        return tableNames.filter { !known.contains($0.uppercased()) }
    }

    /// Copies the framework tables of `source` (attached as `src`), with the entity numbers
    /// of history changes translated by `translation` (a `CASE` over the source number,
    /// NULL when the entity has no destination).
    func copyFrameworkTables(of source: PersistentStore, translation: (String) -> String) throws {
        let tables = source.frameworkTables
        guard !tables.isEmpty else { return }
        let names = tables.map { "'\($0)'" }.joined(separator: ", ")
        for row in try connection.rows(
            "SELECT sql FROM src.sqlite_master WHERE tbl_name IN (\(names)) AND sql IS NOT NULL ORDER BY type = 'index', rowid")
        {
            if case .text(let sql) = row[0] { try connection.execute(sql) }
        }
        for table in tables {
            if table.uppercased() == "ACHANGE" {
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
