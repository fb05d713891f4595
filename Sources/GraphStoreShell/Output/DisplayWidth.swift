/// How many terminal columns text takes: East Asian wide characters and most emoji take
/// two, combining marks and controls none, everything else one.
///
/// `wcwidth` would need a UTF-8 locale, which scripts and tests often run without; these
/// ranges (Unicode's East Asian Width W and F classes, and the emoji blocks) are enough to
/// keep tables aligned.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        // Most values are plain ASCII: count bytes then.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (grapheme cluster) takes.
    static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if value < 0x20 || (0x7f..<0xa0).contains(value) { return 0 }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark { return 0 }
        if isWide(value) { return 2 }
        // An emoji presentation selector makes a narrow symbol wide (❤️).
        if character.unicodeScalars.contains(where: { $0.value == 0xfe0f }) { return 2 }
        return 1
    }

    /// The longest prefix of `text` that fits in `width` columns.
    static func prefix(_ text: String, fitting width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let w = of(text[index])
            if used + w > width { break }
            used += w
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115f, 0x231a...0x231b, 0x2329...0x232a, 0x23e9...0x23ec, 0x23f0, 0x23f3,
            0x25fd...0x25fe, 0x2614...0x2615, 0x2648...0x2653, 0x267f, 0x2693, 0x26a1, 0x26aa...0x26ab,
            0x26bd...0x26be, 0x26c4...0x26c5, 0x26ce, 0x26d4, 0x26ea, 0x26f2...0x26f3, 0x26f5, 0x26fa,
            0x26fd, 0x2705, 0x270a...0x270b, 0x2728, 0x274c, 0x274e, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27b0, 0x27bf, 0x2b1b...0x2b1c, 0x2b50, 0x2b55,
            0x2e80...0x303e, 0x3041...0x33ff, 0x3400...0x4dbf, 0x4e00...0x9fff, 0xa000...0xa4cf,
            0xa960...0xa97f, 0xac00...0xd7a3, 0xf900...0xfaff, 0xfe10...0xfe19, 0xfe30...0xfe6f,
            0xff00...0xff60, 0xffe0...0xffe6, 0x16fe0...0x18cff, 0x1b000...0x1b2ff,
            0x1f004, 0x1f0cf, 0x1f18e, 0x1f191...0x1f19a, 0x1f200...0x1f251,
            0x1f300...0x1f64f, 0x1f680...0x1f6ff, 0x1f7e0...0x1f7eb, 0x1f90c...0x1f9ff,
            0x1fa70...0x1faff, 0x20000...0x3fffd:
            return true
        default:
            return false
        }
    }
}
