/// How one value is written in each text mode: quoted for CSV, escaped for TSV and HTML,
/// kept on one line in aligned columns, cut to a width with `…`.
enum FieldText {
    /// An RFC 4180 field: quoted when it holds the separator, a quote, a line break, or
    /// leading or trailing spaces.
    static func csv(_ text: String, separator: String = ",") -> String {
        csvNeedsQuotes(text, separator: separator) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// Whether a CSV field must be quoted, from its UTF-8 bytes (a field is written once per
    /// row and column, so this runs millions of times for a large table): a quote, a line
    /// break (U+000A–U+000D, U+0085, U+2028, U+2029, the characters `isNewline` names), the
    /// separator, or a space at either end.
    static func csvNeedsQuotes(_ text: String, separator: String) -> Bool {
        guard separator.utf8.count == 1, let separatorByte = separator.utf8.first else {
            let bytes = text.utf8
            if bytes.first == 0x20 || bytes.last == 0x20 || (!separator.isEmpty && text.contains(separator)) { return true }
            return Array(bytes).withUnsafeBufferPointer { csvNeedsQuotes($0, separator: nil) }
        }
        if let answer = text.utf8.withContiguousStorageIfAvailable({ csvNeedsQuotes($0, separator: separatorByte) }) { return answer }
        return Array(text.utf8).withUnsafeBufferPointer { csvNeedsQuotes($0, separator: separatorByte) }
    }

    /// ``csvNeedsQuotes(_:separator:)`` on a field's UTF-8 bytes, with a separator of one
    /// byte (nil: one the caller has looked for already).
    static func csvNeedsQuotes(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8?) -> Bool {
        if bytes.first == 0x20 || bytes.last == 0x20 { return true }
        // Without a separator of its own, the quote stands in for it (it is looked for anyway).
        let separator = separator ?? 0x22
        for i in bytes.indices {
            let byte = bytes[i]
            if byte < 0x80 {
                // A quote, U+000A–U+000D, or the separator.
                if byte == 0x22 || byte &- 0x0A < 4 || byte == separator { return true }
                continue
            }
            // U+0085 is C2 85; U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            if byte == 0x85, i > 0, bytes[i - 1] == 0xC2 { return true }
            if byte == 0xA8 || byte == 0xA9, i > 1, bytes[i - 1] == 0x80, bytes[i - 2] == 0xE2 { return true }
            if byte == separator { return true }
        }
        return false
    }

    /// A TSV field: tabs, line breaks and backslashes escaped.
    static func tsv(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\\" || $0.isNewline }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Text inside an HTML element, escaped as sqlite3's html mode escapes it.
    static func html(_ text: String) -> String {
        guard text.contains(where: { "<>&\"'".contains($0) }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The text on one line: line breaks and tabs written as `\n`, `\r`, `\t`.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }

    /// `text` in lines of at most `width` columns, broken between characters (as sqlite3
    /// wraps a value longer than its `.width`); a character wider than `width` takes a line.
    static func wrap(_ text: String, to width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if used + characterWidth > width, !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            line.append(character)
            used += characterWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` cut to `width` columns, its last column an ellipsis.
    static func cut(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        return DisplayWidth.prefix(text, fitting: width - 1) + "…"
    }
}
