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
        var start = 0
        if part.count >= 2, let base = text.baseAddress {
            // Sixteen starts at a time: only a run where the part's first two bytes meet is
            // looked at byte by byte (most texts of a scan have none).
            let (a, b) = caseInsensitive ? (lowercase(first), lowercase(part[1])) : (first, part[1])
            // Both loads stay inside the text; starts past `last` in the final run are masked off.
            while start <= last, start + 17 <= text.count {
                let here = UnsafeRawPointer(base + start).loadUnaligned(as: SIMD16<UInt8>.self)
                let next = UnsafeRawPointer(base + start + 1).loadUnaligned(as: SIMD16<UInt8>.self)
                let (x, y) = caseInsensitive ? (lowercase(here), lowercase(next)) : (here, next)
                let inside = ASCII.lanes .<= SIMD16(repeating: UInt8(min(last - start, 15)))
                if any((x .== SIMD16(repeating: a)) .& (y .== SIMD16(repeating: b)) .& inside),
                    hasMatch(part, in: text, from: start, through: min(start + 15, last), caseInsensitive: caseInsensitive)
                {
                    return true
                }
                start += 16
            }
        }
        return start <= last && hasMatch(part, in: text, from: start, through: last, caseInsensitive: caseInsensitive)
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

    /// 0, 1, …, 15: each lane's offset from the run's first start.
    private static let lanes = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

    /// Sixteen bytes lowered as ``lowercase(_:)`` lowers one.
    @inline(__always)
    private static func lowercase(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        bytes.replacing(with: bytes | 0x20, where: (bytes &- 0x41) .< 26)
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
