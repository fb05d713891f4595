import GraphStore

/// `sql STATEMENT`: one read-only SQL statement on the store's file, its rows printed in
/// the current mode.
enum SQLCommand {
    static let statement = Placeholder("STATEMENT", .text)

    static let command = ShellCommand(
        "sql", arguments: [.value(statement)],
        summary: "run one read-only SQL statement (SELECT, WITH, EXPLAIN, a PRAGMA that reports, ATTACH) on the store's file; its rows in the current mode",
        example: "sql SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY",
        details: """
            Every table of the file can be read: the entity tables, Z_PRIMARYKEY, Z_METADATA, \
            Z_MODELCACHE, join tables (Z_1TAGS), the persistent-history tables (ATRANSACTION, \
            ACHANGE). The statement runs on the store's own connection, so it sees what the other \
            commands see, and it may only read: SQLite refuses a statement that would write \
            (an authorizer allows only reading), so sql DELETE FROM ZBOOK changes nothing, \
            not one byte of the file, even with --write. Unsaved changes are not in the file: \
            fetch and count see them, sql does not. A ; ends the statement as it ends any \
            command, but the statement is read as sqlite3 reads SQL: a ; inside an SQL \
            comment (-- to the end of the line, /* */) or string ('it''s', "name") is SQL, \
            so sql SELECT 1 -- ; delete Book/p1 is one statement. A PRAGMA runs when it only \
            reports (PRAGMA journal_mode, PRAGMA table_info(ZBOOK), PRAGMA page_size); \
            PRAGMA x = v is refused, as are optimize, wal_checkpoint, incremental_vacuum and \
            shrink_memory, which act with no argument. ATTACH 'seed.sqlite' AS seed attaches \
            another file, read-only (it must exist, and not be the store's own file), so that \
            one query reads both (SELECT count(*) FROM seed.ZBOOK); DETACH seed lets it go. \
            SQL typed without sql in front (SELECT, WITH, VALUES, PRAGMA, EXPLAIN QUERY PLAN, \
            ATTACH, DETACH) runs as sql does and, as in sqlite3, goes on over lines until its ;. \
            .sql STATEMENT does the same as sql STATEMENT.
            """
    ) { shell, arguments in
        try run(arguments.text(from: statement) ?? "", shell: shell)
    }

    /// Runs the statement and prints its rows. `sql` is a slice of the statement it was
    /// typed in: an error SQLite places in it names the line and column.
    static func run(_ sql: Substring, shell: Shell) throws {
        let database = try shell.requireDatabase()
        do {
            try shell.emit(rows: { columns, row in try database.forEachRow(readOnlySQL: String(sql), columns: columns, row: row) })
        } catch let error as SQLiteError where error.offset != nil && !error.isInterruption {
            let place = TypedPlace(sql, scalarOffset: Self.scalarOffset(ofUTF8: error.offset ?? 0, in: sql))
            throw ShellError("SQLite error \(error.code): \(error.message), at \(place)\n" + place.pointer, at: place)
        }
    }

    /// The scalars before a UTF-8 byte offset of `text` (SQLite places errors in bytes).
    private static func scalarOffset(ofUTF8 offset: Int, in text: Substring) -> Int {
        let utf8 = text.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: max(0, offset), limitedBy: utf8.endIndex) ?? utf8.endIndex
        return text.unicodeScalars[..<end].count
    }

    /// A value as a result shows it: numbers typed (JSON keeps them numbers), blobs by
    /// size and first bytes in table and box, whole as 0x hex in the other modes.
    static func cell(_ value: SQLiteValue) -> Cell {
        switch value {
        case .null: .null
        case .integer(let v): .value(.integer(v))
        case .real(let v): .value(.double(v))
        case .text(let s): .text(s)
        case .blob(let d): .value(.data(d))
        }
    }
}

extension Shell {
    /// Streams a result whose columns are known only once the query is prepared: `query`
    /// hands the column names to its first closure, then each row to its second. Nothing
    /// is written when the query fails before its first row.
    func emit(rows query: (_ columns: ([String]) throws -> Void, _ row: ([SQLiteValue]) throws -> Void) throws -> Void) throws {
        var sink: ResultWriter?
        var finish: (() -> Void)?
        do {
            try query({ columns in
                let started = startResult(columns: columns)
                sink = started.sink
                finish = started.finish
            }, { values in
                sink?.row(values.map(SQLCommand.cell))
            })
        } catch {
            // The rows written before the failure are shown.
            sink?.flush()
            throw error
        }
        finish?()
    }
}
