/// Byte-level answers for ASCII operands, the common case in large scans: no strings are
/// made. They agree with `StringMatching` exactly: for ASCII text `[c]` folding is ASCII
/// lower-casing, `[d]` changes nothing, and every byte is its own character except that
/// CR LF is one, so a match may not split a CR LF pair.
extension PredicateSQLFunction {
    /// The answer, or nil when an operand is not ASCII text (or the function has no fast path).
    func asciiAnswer(_ arguments: SQLFunctionArguments) -> SQLiteValue? {
        guard self != .like, self != .matches, self != .fold, self != .function, arguments.count == 3,
            let text = arguments.utf8(0), let pattern = arguments.utf8(1), ASCII.isASCII(text), ASCII.isASCII(pattern)
        else { return nil }
        let options = ComparisonOptions(rawValue: UInt(clamping: arguments.int64(2)))
        let folding = options.contains(.caseInsensitive) && !options.contains(.normalized)
        switch self {
        case .equals: return .integer(ASCII.equal(text, pattern, caseInsensitive: folding) ? 1 : 0)
        case .compare: return .integer(ASCII.order(text, pattern, caseInsensitive: folding))
        case .beginsWith: return .integer(ASCII.hasPrefix(text, pattern, caseInsensitive: folding) ? 1 : 0)
        case .endsWith: return .integer(ASCII.hasSuffix(text, pattern, caseInsensitive: folding) ? 1 : 0)
        case .contains: return .integer(ASCII.contains(text, pattern, caseInsensitive: folding) ? 1 : 0)
        default: return nil
        }
    }
}

/// Matching on ASCII bytes as Swift matches characters.
enum ASCII {
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A

    /// All bytes below 0x80: their OR is (a loop without an early exit, which the compiler
    /// turns into wide operations; the texts of a scan are short).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.reduce(0, |) < 0x80 }

    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    // The bytes are compared where they lie, lowered as they are read under `[c]`: these
    // run once per row of a scan, so they make no copies.
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func equal(_ a: Bytes, _ b: Bytes, caseInsensitive: Bool) -> Bool {
        a.count == b.count && occurs(b, in: a, at: 0, caseInsensitive: caseInsensitive)
    }

    /// -1, 0 or 1, as the two compare byte by byte (lowered under `[c]`).
    static func order(_ a: Bytes, _ b: Bytes, caseInsensitive: Bool) -> Int64 {
        for i in 0..<min(a.count, b.count) {
            let (x, y) = caseInsensitive ? (lowercase(a[i]), lowercase(b[i])) : (a[i], b[i])
            if x != y { return x < y ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// An empty prefix, suffix or part never matches (NSString range semantics).
    static func hasPrefix(_ text: Bytes, _ prefix: Bytes, caseInsensitive: Bool) -> Bool {
        !prefix.isEmpty && occurs(prefix, in: text, at: 0, caseInsensitive: caseInsensitive)
    }

    static func hasSuffix(_ text: Bytes, _ suffix: Bytes, caseInsensitive: Bool) -> Bool {
        !suffix.isEmpty && text.count >= suffix.count && occurs(suffix, in: text, at: text.count - suffix.count, caseInsensitive: caseInsensitive)
    }

    static func contains(_ text: Bytes, _ part: Bytes, caseInsensitive: Bool) -> Bool {
        guard let first = part.first, text.count >= part.count else { return false }
        let last = text.count - part.count
        guard last >= 7, let base = text.baseAddress else { return hasMatch(part, in: text, from: 0, through: last, caseInsensitive: caseInsensitive) }
        // Eight starts at a time, read as words: only where a start's byte and the next one
        // are the part's first two bytes is it looked at byte by byte (most texts of a scan
        // have no such place). The last eight starts are read from `last - 7`, over the
        // ones before if need be, so no start is left to a slower loop.
        let lead = Needle(first, caseInsensitive: caseInsensitive)
        let second = part.count >= 2 ? Needle(part[1], caseInsensitive: caseInsensitive) : nil
        func word(_ at: Int) -> UInt64 { UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) }
        var next = 0
        while true {
            let at = min(next, last - 7)
            var differs = lead.differs(word(at))
            // Bytes `at + 1 ... at + 8`: inside the text, since the part has a byte after them.
            if let second { differs |= second.differs(word(at + 1)) }
            if ASCII.hasZeroByte(differs), hasMatch(part, in: text, from: at, through: at + 7, caseInsensitive: caseInsensitive) { return true }
            if at == last - 7 { return false }
            next += 8
        }
    }

    /// One byte of the part, found in eight bytes at once: XOR leaves a zero byte where it
    /// is. Under [c] a letter is found in either case by setting bit 5 of every byte first
    /// (only the letter's two cases become its lower case that way; punctuation stays
    /// punctuation).
    private struct Needle {
        let pattern: UInt64
        let fold: UInt64

        init(_ byte: UInt8, caseInsensitive: Bool) {
            let lowered = caseInsensitive ? ASCII.lowercase(byte) : byte
            pattern = UInt64(lowered) &* 0x0101_0101_0101_0101
            fold = caseInsensitive && lowered &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
        }

        @inline(__always)
        func differs(_ word: UInt64) -> UInt64 { (word | fold) ^ pattern }
    }

    /// Whether a byte of `word` is zero (the classic test: a byte that borrows when 1 is
    /// taken from it, and had its top bit clear). It may also say so for a 0x01 byte above
    /// a zero one; the byte-by-byte look settles every word it names.
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether `part` occurs at one of the starts `from...through`, looked at one by one;
    /// one loop for each case, so that neither asks which it is at every byte.
    private static func hasMatch(_ part: Bytes, in text: Bytes, from: Int, through: Int, caseInsensitive: Bool) -> Bool {
        guard let first = part.first else { return false }
        if caseInsensitive {
            let lead = lowercase(first)
            for start in from...through where lowercase(text[start]) == lead {
                if occurs(part, in: text, at: start, caseInsensitive: true) { return true }
            }
        } else {
            for start in from...through where text[start] == first {
                if occurs(part, in: text, at: start, caseInsensitive: false) { return true }
            }
        }
        return false
    }


    /// Whether `part` occurs at offset `start` without splitting a CR LF at either end.
    @inline(__always)
    private static func occurs(_ part: Bytes, in text: Bytes, at start: Int, caseInsensitive: Bool) -> Bool {
        let end = start + part.count
        guard end <= text.count else { return false }
        for i in 0..<part.count {
            let (x, y) = caseInsensitive ? (lowercase(text[start + i]), lowercase(part[i])) : (text[start + i], part[i])
            if x != y { return false }
        }
        if start > 0, part.first == lf, text[start - 1] == cr { return false }
        if end < text.count, part.last == cr, text[end] == lf { return false }
        return true
    }
}
