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
}
