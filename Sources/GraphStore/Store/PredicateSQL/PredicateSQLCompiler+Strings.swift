import Foundation

/// String operators: BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES through the
/// registered functions, with an index-friendly key range in front where the operator
/// pins a literal prefix.
extension PredicateSQLCompiler {
    func stringOperation(_ text: SQLOperand, _ op: ComparisonOperator, _ pattern: SQLOperand, options: ComparisonOptions) throws
        -> SQLCondition
    {
        // String operators with a nil side are false in memory.
        if text.kind == .null || pattern.kind == .null { return .truth(false) }
        guard text.kind == .string, pattern.kind == .string else {
            throw SQLUnsupported("\(op.symbol) on \(text.kind) and \(pattern.kind) is evaluated in memory (it raises there)")
        }
        let constant = pattern.constant?.stringValue
        if let constant, [.beginsWith, .endsWith, .contains].contains(op), StringMatching.fold(constant, options).isEmpty {
            return .truth(false)
        }
        if op == .matches, let constant, !PredicateSQLCompiler.isValidRegex(constant, options: options) {
            throw SQLUnsupported("'\(constant)' is not a valid regular expression (evaluating raises)")
        }
        let function: PredicateSQLFunction
        switch op {
        case .beginsWith: function = .beginsWith
        case .endsWith: function = .endsWith
        case .like: function = .like
        case .matches: function = .matches
        default: function = .contains
        }
        let call = SQLCondition(fragment: .function(function, [text.fragment, pattern.fragment, optionsParameter(options)]), nullable: false)
        if op == .contains || op == .endsWith, case .column = text.fragment, let constant, PredicateSQLCompiler.folding(options).isEmpty,
            PredicateSQLCompiler.isSpelledOneWay(constant)
        {
            // SQLite's substring search rules out most rows; the function decides the rest.
            return .and([SQLCondition(fragment: .holdsBytes(text.fragment, pattern.fragment), nullable: true), call])
        }
        guard case .column = text.fragment, let constant, PredicateSQLCompiler.folding(options).isEmpty,
            let prefix = PredicateSQLCompiler.literalPrefix(of: constant, for: op), PredicateSQLCompiler.isSpelledOneWay(prefix)
        else { return call }
        if op == .beginsWith, let settled = PredicateSQLCompiler.settledPrefixBound(prefix) {
            // Most rows of the range start with the prefix and then an ASCII character (or
            // end there): those match for certain, so the function decides only the others.
            let certain = SQLCondition(fragment: .comparison(text.fragment, .less, .parameter(.text(settled))), nullable: true)
            return .and([prefixRange(text, prefix), .or([certain, call])])
        }
        return .and([prefixRange(text, prefix), call])
    }

    /// For an ASCII BEGINSWITH prefix: the prefix followed by U+0080. A text from the prefix's
    /// range that sorts below it continues with an ASCII character or not at all, and an
    /// ASCII character never joins the grapheme before it (only LF after CR does, so a
    /// prefix ending in CR has no bound): such a text starts with the prefix's characters
    /// exactly, as Swift's `hasPrefix` sees them. Nil when that does not hold.
    static func settledPrefixBound(_ prefix: String) -> String? {
        guard prefix.utf8.allSatisfy({ $0 < 0x80 }), prefix.utf8.last != 0x0D else { return nil }
        return prefix + "\u{80}"
    }

    /// Whether every text that holds `literal` as whole characters, compared exactly (no
    /// `[c]`, no `[d]`), holds its bytes there, so that SQLite may rule rows out by bytes
    /// (a key range for a prefix, `instr` for a part): true for ASCII text without `K`, `;`
    /// or `` ` ``. Characters compare by canonical equivalence, and an ASCII character is
    /// equal to itself alone, except these three, which are also the canonical forms of
    /// U+212A KELVIN SIGN, U+037E GREEK QUESTION MARK and U+1FEF GREEK VARIA; a non-ASCII
    /// character has other spellings (`é` is also `e` and U+0301). Under `[c]` or `[d]` many
    /// more characters fold to ASCII (`ſ`, `ﬁ`, `é`), and telling ASCII rows apart in SQL
    /// costs more than the in-place check the function makes (PredicateSQLFunction+ASCII.swift),
    /// so those get no prefilter.
    static func isSpelledOneWay(_ literal: String) -> Bool {
        !literal.isEmpty && literal.utf8.allSatisfy { $0 < 0x80 && $0 != 0x4B && $0 != 0x3B && $0 != 0x60 }
    }

    /// `col >= prefix AND col < successor`: the rows whose text starts with `prefix`
    /// byte for byte, which an index on the column finds by a range search. The function
    /// after it still decides (graphemes, LIKE wildcards), so the range only narrows.
    private func prefixRange(_ text: SQLOperand, _ prefix: String) -> SQLCondition {
        var parts = [SQLCondition(fragment: .comparison(text.fragment, .greaterOrEqual, .parameter(.text(prefix))), nullable: true)]
        if let successor = PredicateSQLCompiler.successor(of: prefix) {
            parts.append(SQLCondition(fragment: .comparison(text.fragment, .less, .parameter(.text(successor))), nullable: true))
        }
        return .and(parts)
    }

    /// The literal text every match must start with: the whole BEGINSWITH operand, or
    /// a LIKE pattern up to its first wildcard or escape. Nil when there is none.
    static func literalPrefix(of pattern: String, for op: ComparisonOperator) -> String? {
        switch op {
        case .beginsWith:
            return pattern.isEmpty ? nil : pattern
        case .like:
            let prefix = String(pattern.unicodeScalars.prefix { $0 != "*" && $0 != "?" && $0 != "\\" })
            return prefix.isEmpty ? nil : prefix
        default:
            return nil
        }
    }

    /// The smallest string greater than every string that starts with `prefix`: the
    /// prefix with its last scalar incremented (SQLite compares text by UTF-8 bytes, which
    /// is code point order). Nil when no such string exists (all U+10FFFF).
    static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                return String(text)
            }
        }
        return nil
    }

    /// Whether MATCHES can compile the pattern with these options (as the evaluator would).
    static func isValidRegex(_ pattern: String, options: ComparisonOptions) -> Bool {
        let (regexPattern, caseInsensitive) = StringMatching.regexForm(pattern, options)
        return RegexCache.shared.isValid(regexPattern, caseInsensitive: caseInsensitive)
    }
}
