import Foundation

extension String {
    /// Whether two SQL identifiers name the same thing: SQLite folds only ASCII letters.
    ///
    /// Plain byte comparison: Foundation's `caseInsensitiveCompare` goes through a locale,
    /// which made opening a store measurably slower and folds more than SQLite does.
    func equalsSQLIdentifier(_ other: String) -> Bool {
        let a = utf8
        let b = other.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            x == y || (x ^ 0x20 == y && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }

    /// The name as an SQL identifier in double quotes, quotes inside doubled: for names read
    /// from a schema (a table or column of any spelling), which SQL text must not take as
    /// keywords or operators.
    ///
    /// ```swift
    /// "ZORDER".quotedSQLIdentifier       // "\"ZORDER\""
    /// "we\"ird".quotedSQLIdentifier      // "\"we\"\"ird\""
    /// ```
    var quotedSQLIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
