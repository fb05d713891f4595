/// The names a model may give its entities, properties and fetch indexes: identifiers, as
/// Xcode's model editor allows them — letters (any script), digits and `_`, not starting
/// with a digit.
///
/// The names become SQL tables, columns and indexes (`ZBOOK`, `ZTITLE`) that Core Data
/// writes unquoted, and key paths in predicates, so a name with a quote, a space, a dot or
/// an operator in it could not be stored or fetched faithfully: a model holding one is
/// refused when it is loaded (``ModelError/invalidName(_:entity:kind:)``), never
/// with an SQLite error later.
///
/// ```swift
/// ModelName.isValid("Book")       // true
/// ModelName.isValid("Café_2")     // true
/// ModelName.isValid("Bo\"ok")     // false
/// ```
enum ModelName {
    static func isValid(_ name: String) -> Bool {
        guard let first = name.first, !first.isNumber else { return false }
        return name.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }
}
