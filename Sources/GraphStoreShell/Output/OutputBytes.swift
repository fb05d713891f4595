import Foundation
import GraphStore

/// A result's text as UTF-8 bytes, gathered in one buffer that is reused from row to row
/// and handed on in pieces of about ``capacity`` bytes: a million-row result makes no
/// string per row or per value, only one per piece.
///
/// Numbers and object IDs are written digit by digit, and CSV fields and JSON strings are
/// quoted and escaped from the bytes of their text where they lie.
///
/// ```swift
/// var bytes = OutputBytes()
/// bytes.append(integer: -42)
/// bytes.append(jsonString: "a \"b\"")
/// bytes.take()                                    // -42"a \"b\""
/// ```
struct OutputBytes {
    /// How many bytes are gathered before a writer hands them on.
    static let capacity = 1 << 14

    private var bytes: [UInt8] = []
    /// The text before the key of object IDs, short form and URI, of each entity met (a
    /// result holds a few: the objects' and their to-ones' destinations').
    private var idPrefixes: [IDPrefixes] = []

    /// An empty buffer; `reserving` makes room for a whole piece at once.
    init(reserving: Bool = false) {
        if reserving { bytes.reserveCapacity(OutputBytes.capacity + 512) }
    }

    /// Whether the buffer holds a piece worth handing on.
    var isFull: Bool { bytes.count >= OutputBytes.capacity }

    var isEmpty: Bool { bytes.isEmpty }

    /// The text gathered so far, leaving the buffer empty (its memory kept for the next piece).
    mutating func take() -> String {
        defer { bytes.removeAll(keepingCapacity: true) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text as it is (its bytes copied where they lie, for a native string).
    mutating func append(_ text: String) { OutputBytes.withBytes(of: text) { bytes.append(contentsOf: $0) } }

    /// Text encoded already: a separator or a JSON key, written on every row.
    mutating func append(utf8 encoded: [UInt8]) { bytes.append(contentsOf: encoded) }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    /// A whole number in decimal, as `String(value)` writes it.
    mutating func append(integer value: Int64) {
        if value >= 0, value < 10 { return bytes.append(UInt8(truncatingIfNeeded: value) + 0x30) }
        OutputBytes.withDigits(of: value) { bytes.append(contentsOf: $0) }
    }

    /// A CSV field (see ``FieldText/csv(_:separator:)``): quoted, its quotes doubled, when
    /// it holds the separator, a quote, a line break or a space at either end.
    mutating func append(csvField text: String, separator: String) {
        guard let separatorByte = OutputBytes.singleByte(separator) else { return append(FieldText.csv(text, separator: separator)) }
        OutputBytes.withBytes(of: text) { appendCSV($0, separator: separatorByte) }
    }

    /// A whole number as a CSV field (quoted only when the separator is a digit or `-`).
    mutating func append(csvInteger value: Int64, separator: String) {
        guard let separatorByte = OutputBytes.singleByte(separator) else { return append(FieldText.csv(String(value), separator: separator)) }
        if separatorByte != 0x2D, !(0x30...0x39).contains(separatorByte) { return append(integer: value) }
        OutputBytes.withDigits(of: value) { appendCSV($0, separator: separatorByte) }
    }

    /// A date as a CSV field, in ISO 8601 (``ISO8601DateText``), written digit by digit;
    /// quoted only when the separator is one of its characters.
    mutating func append(csvDate date: Date, in timeZone: TimeZone, separator: String) {
        guard let separatorByte = OutputBytes.singleByte(separator) else {
            return append(FieldText.csv(ISO8601DateText.string(from: date, in: timeZone), separator: separator))
        }
        let start = bytes.count
        ISO8601DateText.appendText(of: date, in: timeZone, to: &bytes)
        guard bytes[start...].withUnsafeBufferPointer({ FieldText.csvNeedsQuotes($0, separator: separatorByte) }) else { return }
        let text = Array(bytes[start...])
        bytes.removeSubrange(start...)
        text.withUnsafeBufferPointer { appendCSV($0, separator: separatorByte) }
    }

    /// A date as a JSON string, in ISO 8601 (``ISO8601DateText``), written digit by digit
    /// (its characters need no escape).
    mutating func append(jsonDate date: Date, in timeZone: TimeZone) {
        bytes.append(0x22)
        ISO8601DateText.appendText(of: date, in: timeZone, to: &bytes)
        bytes.append(0x22)
    }

    /// A JSON string: quotes, backslashes and control characters escaped, everything else
    /// as it is.
    mutating func append(jsonString text: String) {
        OutputBytes.withBytes(of: text) { appendJSON($0) }
    }

    /// An object ID as a CSV field: its short form (`Book/p4`), or its URI.
    mutating func append(csvObjectID id: ObjectID, uri: Bool, separator: String) {
        // The key's digits never need quotes, unless the separator is a digit.
        guard let separatorByte = OutputBytes.singleByte(separator), !(0x30...0x39).contains(separatorByte),
            let prefix = prefix(of: id, uri: uri), !prefix.withUnsafeBufferPointer({ FieldText.csvNeedsQuotes($0, separator: separatorByte) })
        else { return append(csvField: uri ? id.uriRepresentation : id.description, separator: separator) }
        bytes.append(contentsOf: prefix)
        append(integer: id.primaryKey ?? 0)
    }

    /// An object ID as a JSON string: its short form (`Book/p4`), or its URI.
    mutating func append(jsonObjectID id: ObjectID, uri: Bool) {
        guard let prefix = prefix(of: id, uri: uri), !prefix.contains(where: OutputBytes.isEscapedInJSON) else {
            return append(jsonString: uri ? id.uriRepresentation : id.description)
        }
        bytes.append(0x22)
        bytes.append(contentsOf: prefix)
        append(integer: id.primaryKey ?? 0)
        bytes.append(0x22)
    }

    /// The text of a permanent object ID before its key (`Book/p`, `x-coredata://<UUID>/Book/p`),
    /// made once per entity met; nil for a temporary ID.
    private mutating func prefix(of id: ObjectID, uri: Bool) -> [UInt8]? {
        guard !id.isTemporary else { return nil }
        let mapping = id.mapping
        let prefixes: IDPrefixes
        if let known = idPrefixes.first(where: { $0.mapping === mapping }) {
            prefixes = known
        } else {
            prefixes = IDPrefixes(mapping)
            idPrefixes.append(prefixes)
        }
        return uri ? prefixes.uri : prefixes.short
    }

    private struct IDPrefixes {
        let mapping: EntityMapping
        let short: [UInt8]
        let uri: [UInt8]

        init(_ mapping: EntityMapping) {
            self.mapping = mapping
            short = Array((mapping.name + "/p").utf8)
            uri = Array(("x-coredata://" + mapping.storeUUID + "/" + mapping.name + "/p").utf8)
        }
    }

    // MARK: - From bytes

    private mutating func appendCSV(_ field: UnsafeBufferPointer<UInt8>, separator: UInt8) {
        guard FieldText.csvNeedsQuotes(field, separator: separator) else { return bytes.append(contentsOf: field) }
        bytes.append(0x22)
        for byte in field {
            if byte == 0x22 { bytes.append(0x22) }
            bytes.append(byte)
        }
        bytes.append(0x22)
    }

    private mutating func appendJSON(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        // Every byte JSON escapes is ASCII, so the text is copied in runs between them, and a
        // byte of a multi-byte character is never one of them.
        var runStart = 0
        for (i, byte) in text.enumerated() where OutputBytes.isEscapedInJSON(byte) {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<i]))
            runStart = i + 1
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            default:
                let hex = OutputBytes.hexDigits
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
        bytes.append(0x22)
    }

    // MARK: - Helpers

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A quote, a backslash or a control character.
    private static func isEscapedInJSON(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }

    /// The separator's one byte, or nil when it is longer (or empty): such fields take the
    /// string path.
    private static func singleByte(_ separator: String) -> UInt8? {
        separator.utf8.count == 1 ? separator.utf8.first : nil
    }

    /// Calls `body` with the text's UTF-8 bytes, in place for a native string.
    private static func withBytes(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the decimal digits of `value` (a `-` first when negative), written
    /// into a buffer on the stack.
    private static func withDigits(of value: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        // 19 digits and a sign hold every Int64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = 0x2D
            }
            body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
