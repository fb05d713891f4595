import Foundation

/// The `sqlite3_column_*` function an attribute type's column is read with, as Core Data
/// reads it, and the conversions SQLite applies with it to a value stored in another
/// storage class.
///
/// Which accessor Core Data calls for each type is not documented anywhere public; this is
/// inferred (see `docs/values.md` for what is known and why): stores Core Data wrote hold
/// whole-valued dates as INTEGER (TIMESTAMP's NUMERIC affinity keeps them so) and Core Data
/// reads them as dates, so its date reader converts as `sqlite3_column_double` does; the
/// other types follow their storage class.
///
/// | type | accessor |
/// |---|---|
/// | Integer 16/32/64, Boolean | `sqlite3_column_int64` |
/// | Double, Float, Date, Decimal | `sqlite3_column_double` (Decimal text is read exactly) |
/// | String, URI | `sqlite3_column_text` |
/// | Binary, Transformable, UUID, others | `sqlite3_column_blob` |
///
/// A stored value is read only where the accessor's conversion keeps what it holds: text
/// `'1'` or `'10.0'` as the integer 1 or 10, `'10.5'` as the double 10.5, a number as its
/// text, text as its bytes. Where it does not (text `'abc'` as a number gives 0, `'1e3'` as
/// an integer gives 1, the real 2.5 as an integer 2), GraphStore says the value cannot be
/// read rather than hand out what an app would silently get.
enum ColumnAccessor {
    case int64, double, text, blob

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: self = .int64
        case .double, .float, .date, .decimal: self = .double
        case .string, .uri: self = .text
        case .binaryData, .transformable, .uuid, .undefined, .objectID, .composite: self = .blob
        }
    }

    /// One non-NULL column of a statement's current row, read through SQLite's accessors.
    struct Reading {
        let statement: Statement
        let column: Int

        /// `sqlite3_column_int64`'s result, when it is the number the column holds: an
        /// integer; a real with no fraction inside `Int64`; text (or a blob of text) that
        /// spells such a number.
        func wholeNumber() -> Int64? {
            switch statement.storageClass(column) {
            case .integer: return statement.int64(column)
            case .real: return Int64(exactly: statement.double(column))
            case .null: return nil
            case .text, .blob:
                guard let text = numericText() else { return nil }
                let converted = statement.int64(column)
                // Integer text is converted digit by digit (SQLite caps what overflows, so
                // compare with the exact parse); real text must come out whole.
                if let exact = Int64(text) { return exact == converted ? exact : nil }
                return Double(converted) == statement.double(column) ? converted : nil
            }
        }

        /// `sqlite3_column_double`'s result, when it is the number the column holds.
        func number() -> Double? {
            switch statement.storageClass(column) {
            case .integer, .real: return statement.double(column)
            case .null: return nil
            case .text, .blob: return numericText() == nil ? nil : statement.double(column)
            }
        }

        /// A Decimal: numbers as `number()` reads them, numeric text exactly as written.
        func decimal() -> Decimal? {
            switch statement.storageClass(column) {
            case .integer: return Decimal(statement.int64(column))
            case .real: return AttributeValue.decimal(stored: statement.double(column))
            case .null: return nil
            case .text, .blob: return numericText().flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
            }
        }

        /// `sqlite3_column_text`'s result: text, a number as SQLite spells it, or a blob's
        /// bytes when they are UTF-8.
        func text() -> String? {
            guard statement.storageClass(column) == .blob else { return statement.string(column) }
            return String(validating: bytes(), as: UTF8.self)
        }

        /// `sqlite3_column_blob`'s result: a blob's bytes, text's UTF-8 bytes, a number's
        /// text as bytes.
        func bytes() -> Data { statement.data(column) ?? Data() }

        /// 16 bytes, or (GraphStore's own leniency, for hand-written stores) the text of a UUID.
        func uuid() -> UUID? {
            if statement.storageClass(column) == .blob {
                let data = bytes()
                guard data.count == 16 else { return nil }
                return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            }
            return statement.string(column).flatMap { UUID(uuidString: $0) }
        }

        /// The column's text, stripped of the white space SQLite ignores around a number,
        /// when it spells a number as SQLite reads one; nil otherwise. Read in place: a long
        /// text that is no number (a megabyte in a number column) costs a look at its first
        /// bytes, not a copy.
        private func numericText() -> String? {
            statement.withTextBytes(column) { bytes -> String? in
                let number = UnsafeBufferPointer(rebasing: bytes[ColumnAccessor.withoutSQLiteSpace(bytes)])
                return ColumnAccessor.isNumeric(number) ? String(decoding: number, as: UTF8.self) : nil
            } ?? nil
        }
    }

    /// The bytes between the white space SQLite skips around a number in text
    /// (`sqlite3Isspace`: space, tab, line feed, vertical tab, form feed, carriage return).
    static func withoutSQLiteSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || (byte >= 9 && byte <= 13) }
        var lower = 0
        var upper = bytes.count
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Whether `text` is a decimal number as SQLite's text-to-number conversion reads it
    /// whole: an optional sign, digits with an optional point (at least one digit), an
    /// optional exponent. No hexadecimal, no `inf` or `nan`.
    static func isNumeric(_ text: String) -> Bool { isNumeric(text.utf8) }

    /// Whether UTF-8 bytes spell a number (see the `String` form); the look stops at the
    /// first byte that cannot be part of one.
    static func isNumeric<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var index = bytes.startIndex
        func take(_ byte: UInt8) -> Bool {
            guard index != bytes.endIndex, bytes[index] == byte else { return false }
            bytes.formIndex(after: &index)
            return true
        }
        func digits() -> Int {
            var count = 0
            while index != bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                bytes.formIndex(after: &index)
                count += 1
            }
            return count
        }
        if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
        var mantissa = digits()
        if take(UInt8(ascii: ".")) { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
