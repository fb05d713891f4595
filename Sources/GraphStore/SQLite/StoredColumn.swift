import CSQLite

/// One column of a statement's current row as SQLite holds it (`sqlite3_column_value`):
/// its storage class and its value, read with one call into the statement.
///
/// Each `sqlite3_column_*` call finds the column again, enters and leaves the connection's
/// mutex (no-op calls on GraphStore's connections) and checks for an allocation failure;
/// asking a column for its storage class and then its value paid that twice. A fetch asks
/// that of every attribute and to-one of every row, so the row path (``RowCodec/decode(_:column:as:)``, ``RowLayout/foreignKey(_:from:)``)
/// takes the column once and reads it with the cheap `sqlite3_value_*` functions.
///
/// ```swift
/// if let column = statement.column(3), column.storageClass == .integer { print(column.int64) }
/// ```
///
/// Sound because the value is SQLite's own cell for the column, valid until the statement
/// steps, is reset or finalized: a `StoredColumn` is read at once and never kept. It is an
/// unprotected value, which SQLite allows to be read on the connection's thread (GraphStore
/// uses each connection from one thread at a time). Only reads that leave the cell as it is
/// are offered: the storage class, the value as a number (SQLite converts text to a number
/// without changing the cell), and a text column's text. Reading a number as text would
/// change the cell, so that goes through ``Statement``'s `sqlite3_column_*` readers.
struct StoredColumn {
    private let value: OpaquePointer

    @inline(__always)
    init(_ value: OpaquePointer) {
        self.value = value
    }

    /// The column's storage class.
    @inline(__always)
    var storageClass: Statement.StorageClass { Statement.StorageClass(sqlite3_value_type(value)) }

    /// Whether the column is NULL.
    @inline(__always)
    var isNull: Bool { sqlite3_value_type(value) == SQLITE_NULL }

    /// The value as an integer, converted as `sqlite3_column_int64` converts it.
    @inline(__always)
    var int64: Int64 { sqlite3_value_int64(value) }

    /// The value as a double, converted as `sqlite3_column_double` converts it.
    @inline(__always)
    var double: Double { sqlite3_value_double(value) }

    /// A text column's text (read only when ``storageClass`` is `.text`: another class would
    /// be converted in the cell).
    var string: String {
        guard let text = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Statement {
    /// A column of the current row as SQLite holds it, read at once (see ``StoredColumn``).
    @inline(__always)
    func column(_ index: Int) -> StoredColumn? {
        sqlite3_column_value(handle, Int32(index)).map(StoredColumn.init)
    }
}
