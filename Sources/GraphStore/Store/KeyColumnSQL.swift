/// How SQL reads a table's numbers that identify objects (`Z_PK`, `Z_ENT`, `Z_OPT`, to-one
/// keys) when it looks objects up, counts them or orders them by key.
///
/// Core Data declares these columns INTEGER, so SQLite keeps every value in them numeric
/// and `Z_PK = ?` with a number finds the row. A table made by hand (a CSV import, a script)
/// may declare them without a type, or as TEXT, and hold text (`'1'`), which never equals
/// the number 1 in SQL, while `sqlite3_column_int64` (how every row is read) reads it as 1.
/// There such a column is read through `CAST(column AS INTEGER)`, which converts as
/// `sqlite3_column_int64` does: the objects a count, a lookup by key or a filter on `Z_ENT`
/// finds are the objects a fetch reads. Tables Core Data made are unchanged (their indexes
/// still serve).
///
/// ```swift
/// let keys = KeyColumnSQL(table: schema.table("ZBOOK"))   // a table declaring Z_PK without a type
/// keys.integer("Z_PK", alias: "t0")                       // "CAST(t0.Z_PK AS INTEGER)"
/// keys.integer("Z_ENT", alias: "t0")                      // "t0.Z_ENT" (declared INTEGER)
/// ```
struct KeyColumnSQL: Sendable, Hashable {
    /// The upper-cased names of the table's columns whose affinity keeps text as text: no
    /// declared type, or one SQLite reads as TEXT or BLOB.
    private let textual: Set<String>

    /// The columns of `table` as declared; a table not in the schema (a store being created)
    /// has every column numeric.
    init(table: DatabaseSchema.Table?) {
        textual = Set((table?.columns ?? []).filter { !KeyColumnSQL.hasNumericAffinity($0.declaredType) }.map { $0.name.uppercased() })
    }

    /// Whether the column may hold text that stands for a number.
    func isTextual(_ column: String) -> Bool { textual.contains(column.uppercased()) }

    /// Whether any of the table's object-identifying columns may.
    var hasTextualKeys: Bool { ["Z_PK", "Z_ENT", "Z_OPT"].contains { textual.contains($0) } }

    /// The column read as an integer, qualified with `alias` when one is given.
    func integer(_ column: String, alias: String? = nil) -> String {
        let qualified = alias.map { "\($0).\(column)" } ?? column
        return isTextual(column) ? "CAST(\(qualified) AS INTEGER)" : qualified
    }

    /// SQLite's affinity rules (datatype3.html, 3.1): a declared type containing INT, REAL,
    /// FLOA or DOUB, or none of CHAR, CLOB, TEXT and BLOB (NUMERIC), converts text that
    /// looks like a number when it is stored; no type, BLOB and the TEXT types keep it text.
    static func hasNumericAffinity(_ declaredType: String) -> Bool {
        let type = declaredType.uppercased()
        if type.contains("INT") { return true }
        if ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) { return false }
        if type.isEmpty || type.contains("BLOB") { return false }
        return true
    }
}
