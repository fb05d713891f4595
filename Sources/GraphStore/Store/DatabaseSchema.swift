/// The tables, columns and indexes of an SQLite file, as the file itself declares them.
///
/// Read once when a store opens; the layout of an existing store always comes from here,
/// never from names derived from the model.
public struct DatabaseSchema: Sendable, Hashable {
    /// A column and its declared type (`ZTITLE`, `VARCHAR`).
    public struct Column: Sendable, Hashable {
        public var name: String
        public var declaredType: String
    }

    /// A table and its columns, in declaration order.
    public struct Table: Sendable, Hashable {
        public var name: String
        public var columns: [Column]
        public var sql: String

        /// Whether the table has this column (SQLite names are case-insensitive).
        public func has(_ column: String) -> Bool { self.column(column) != nil }

        /// The column with this name, compared case-insensitively.
        public func column(_ name: String) -> Column? {
            columns.first { $0.name.equalsSQLIdentifier(name) }
        }
    }

    /// An index and the table it belongs to.
    public struct Index: Sendable, Hashable {
        public var name: String
        public var table: String
        public var sql: String?
    }

    /// The tables, by upper-cased name.
    public private(set) var tables: [String: Table]
    /// The indexes.
    public private(set) var indexes: [Index]
    /// Trigger names.
    public private(set) var triggers: [String]

    /// The table with this name, compared case-insensitively.
    public func table(_ name: String) -> Table? { tables[name.uppercased()] }

    /// Reads the schema of an open database.
    init(reading connection: Connection) throws(SQLiteError) {
        tables = [:]
        indexes = []
        triggers = []
        for row in try connection.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid") {
            guard case .text(let type) = row[0], case .text(let name) = row[1] else { continue }
            let tableName: String = if case .text(let t) = row[2] { t } else { name }
            let sql: String? = if case .text(let s) = row[3] { s } else { nil }
            switch type {
            case "table":
                let columns = try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(name)]).map {
                    Column(name: $0[0].description, declaredType: $0[1].isNull ? "" : $0[1].description)
                }
                tables[name.uppercased()] = Table(name: name, columns: columns, sql: sql ?? "")
            case "index": indexes.append(Index(name: name, table: tableName, sql: sql))
            case "trigger": triggers.append(name)
            default: break
            }
        }
    }
}
