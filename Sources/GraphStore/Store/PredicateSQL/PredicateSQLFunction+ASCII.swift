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
        if options.contains(.caseInsensitive), !options.contains(.normalized) {
            return answer(text.lazy.map(ASCII.lowercase), pattern.lazy.map(ASCII.lowercase))   // lowered as read: no copies
        }
        return answer(text, pattern)
    }

    private func answer<Bytes: RandomAccessCollection<UInt8>>(_ a: Bytes, _ b: Bytes) -> SQLiteValue? where Bytes.Index == Int {
        switch self {
        case .equals: return .integer(a.elementsEqual(b) ? 1 : 0)
        case .compare: return .integer(a.elementsEqual(b) ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1))
        case .beginsWith: return .integer(ASCII.hasPrefix(a, b) ? 1 : 0)
        case .endsWith: return .integer(ASCII.hasSuffix(a, b) ? 1 : 0)
        case .contains: return .integer(ASCII.contains(a, b) ? 1 : 0)
        default: return nil
        }
    }
}

/// Matching on ASCII bytes as Swift matches characters.
enum ASCII {
    private static let cr: UInt8 = 0x0D
    private static let lf: UInt8 = 0x0A

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }

    static func lowercase(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// An empty prefix, suffix or part never matches (NSString range semantics).
    static func hasPrefix<Bytes: RandomAccessCollection<UInt8>>(_ text: Bytes, _ prefix: Bytes) -> Bool where Bytes.Index == Int {
        !prefix.isEmpty && occurs(prefix, in: text, at: 0)
    }

    static func hasSuffix<Bytes: RandomAccessCollection<UInt8>>(_ text: Bytes, _ suffix: Bytes) -> Bool where Bytes.Index == Int {
        !suffix.isEmpty && text.count >= suffix.count && occurs(suffix, in: text, at: text.count - suffix.count)
    }

    static func contains<Bytes: RandomAccessCollection<UInt8>>(_ text: Bytes, _ part: Bytes) -> Bool where Bytes.Index == Int {
        guard !part.isEmpty, text.count >= part.count else { return false }
        return (0...(text.count - part.count)).contains { occurs(part, in: text, at: $0) }
    }

    /// Whether `part` occurs at offset `start` without splitting a CR LF at either end.
    private static func occurs<Bytes: RandomAccessCollection<UInt8>>(_ part: Bytes, in text: Bytes, at start: Int) -> Bool
    where Bytes.Index == Int {
        let base = text.startIndex
        let end = start + part.count
        guard end <= text.count, text[(base + start)..<(base + end)].elementsEqual(part) else { return false }
        if start > 0, part.first == lf, text[base + start - 1] == cr { return false }
        if end < text.count, part.last == cr, text[base + end] == lf { return false }
        return true
    }
}
