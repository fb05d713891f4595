import Foundation
@testable import GraphStore

/// Core Data's reading rules applied to a stored column with SQL alone (`typeof` and `CAST`,
/// which convert as the `sqlite3_column_*` accessors do), written apart from GraphStore's
/// `RowCodec` and `ColumnAccessor`, so that the tests compare GraphStore's values with an
/// independent reading of the same rows (see `docs/values.md`, "Reading values").
enum SQLValueRules {
    /// What a column should read as.
    enum Expected: Equatable, CustomStringConvertible {
        /// A value (nil: none).
        case value(AttributeValue?)
        /// A reference to an external data file of this name.
        case external(String)
        /// Not readable as the attribute's type.
        case unreadable

        var description: String {
            switch self {
            case .value(let value): value.map { "\($0)" } ?? "nil"
            case .external(let name): "external \(name)"
            case .unreadable: "unreadable"
            }
        }
    }

    /// The expressions that read one column for ``expected(_:type:external:)``.
    static func selectList(_ column: String) -> [String] {
        ["typeof(\(column))", column, "CAST(\(column) AS INTEGER)", "CAST(\(column) AS REAL)", "CAST(\(column) AS TEXT)"]
    }

    /// How many result columns ``selectList(_:)`` makes.
    static let width = 5

    /// The value a column holds for an attribute of `type`, from the five results of
    /// ``selectList(_:)``; `external` when the attribute allows external storage.
    static func expected(_ results: ArraySlice<SQLiteValue>, type: AttributeType, external: Bool) -> Expected {
        let r = Array(results)
        guard case .text(let storage) = r[0], storage != "null" else { return .value(nil) }
        let raw = r[1]
        let asInteger = r[2].integerValue
        let asReal = r[3].realValue
        let asText = r[4].textValue ?? ""
        let numeric = storage == "integer" || storage == "real" || isNumericText(asText)
        if external, case .blob(let bytes) = raw, let tag = bytes.first {
            if tag == 1 { return .value(.data(Data(bytes.dropFirst()))) }
            if tag == 2 { return .external(String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)) }
        }
        switch type {
        case .integer16, .integer32, .integer64, .boolean:
            guard numeric, let whole = asInteger, let real = asReal, Double(whole) == real else { return .unreadable }
            return .value(type == .boolean ? .bool(whole != 0) : .integer(whole))
        case .double, .float:
            guard numeric, let real = asReal else { return .unreadable }
            return .value(.double(real))
        case .date:
            guard numeric, let real = asReal else { return .unreadable }
            return .value(.date(Date(timeIntervalSinceReferenceDate: real)))
        case .decimal:
            guard numeric else { return .unreadable }
            if storage == "integer", let whole = asInteger { return .value(.decimal(Decimal(whole))) }
            // A stored real is the Decimal of its shortest digits (docs/values.md, Decimals).
            if storage == "real", let real = asReal { return .value(.decimal(Decimal(string: "\(real)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(real))) }
            return Decimal(string: asText.trimmingCharacters(in: .whitespacesAndNewlines), locale: Locale(identifier: "en_US_POSIX")).map { .value(.decimal($0)) } ?? .unreadable
        case .string:
            if case .blob(let bytes) = raw { return String(validating: bytes, as: UTF8.self).map { .value(.string($0)) } ?? .unreadable }
            return .value(.string(asText))
        case .uri:
            return URL(string: asText).map { .value(.uri($0)) } ?? .unreadable
        case .uuid:
            if case .blob(let bytes) = raw {
                guard bytes.count == 16 else { return .unreadable }
                return .value(.uuid(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })))
            }
            return UUID(uuidString: asText).map { .value(.uuid($0)) } ?? .unreadable
        case .binaryData, .transformable, .undefined, .objectID, .composite:
            if case .blob(let bytes) = raw { return .value(.data(bytes)) }
            return .value(.data(Data(asText.utf8)))
        }
    }

    /// A decimal number as SQLite reads text whole (white space around it allowed).
    static func isNumericText(_ text: String) -> Bool {
        text.range(of: #"^[ \t\n\x0B\x0C\r]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\x0B\x0C\r]*$"#, options: .regularExpression) != nil
    }
}

extension SQLiteValue {
    fileprivate var integerValue: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    fileprivate var realValue: Double? {
        if case .real(let v) = self { return v }
        return nil
    }

    fileprivate var textValue: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}
