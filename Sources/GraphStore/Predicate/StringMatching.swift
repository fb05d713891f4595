import Foundation

/// String operators: folding for `[c]`/`[d]`, equality and order, BEGINSWITH/ENDSWITH/
/// CONTAINS, LIKE wildcards and anchored ICU regular expressions for MATCHES.
enum StringMatching {
    /// The string as the options compare it: `[d]` strips combining marks after canonical
    /// decomposition, `[c]` applies full case folding (upper then lower, so `ß` ~ `SS`);
    /// `[n]` means the operands are already normalized, so nothing is changed.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        if options.contains(.normalized) { return text }
        var result = text
        if options.contains(.diacriticInsensitive) { result = removingDiacritics(result) }
        if options.contains(.caseInsensitive) { result = result.uppercased().lowercased() }
        return result
    }

    static func removingDiacritics(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars)
    }

    static func equal(_ a: String, _ b: String, options: ComparisonOptions) -> Bool {
        fold(a, options) == fold(b, options)
    }

    /// Unicode order, case-sensitive unless `[c]` ("XYZ" < "abc").
    static func compare(_ a: String, _ b: String, options: ComparisonOptions) -> ComparisonResult {
        let x = fold(a, options)
        let y = fold(b, options)
        if x == y { return .orderedSame }
        return x < y ? .orderedAscending : .orderedDescending
    }

    /// An empty prefix, suffix or substring never matches (NSString range semantics).
    static func hasPrefix(_ text: String, _ prefix: String, options: ComparisonOptions) -> Bool {
        let p = fold(prefix, options)
        return !p.isEmpty && fold(text, options).hasPrefix(p)
    }

    static func hasSuffix(_ text: String, _ suffix: String, options: ComparisonOptions) -> Bool {
        let s = fold(suffix, options)
        return !s.isEmpty && fold(text, options).hasSuffix(s)
    }

    static func contains(_ text: String, _ part: String, options: ComparisonOptions) -> Bool {
        let p = fold(part, options)
        return !p.isEmpty && fold(text, options).firstRange(of: p) != nil
    }

    private enum GlobElement: Equatable {
        case literal(Character)
        case anyOne
        case anyRun
    }

    /// LIKE: the whole string against a pattern where `*` is any run of characters, `?`
    /// exactly one, `\` makes the next character literal, and everything else is literal.
    ///
    /// Every 10,000 comparisons it draws on the operation's ``MatchBudget`` and looks for an
    /// interrupt: a slow pattern over many rows stops with a ``MatchBudgetError``.
    static func like(_ text: String, pattern: String, options: ComparisonOptions) throws -> Bool {
        let subject = Array(fold(text, options))
        var elements: [GlobElement] = []
        var escaping = false
        for character in fold(pattern, options) {
            if escaping {
                elements.append(.literal(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "*" {
                if elements.last != .anyRun { elements.append(.anyRun) }
            } else if character == "?" {
                elements.append(.anyOne)
            } else {
                elements.append(.literal(character))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        // Greedy match that backtracks to the last `*`: O(text × pattern), never exponential.
        var t = 0
        var p = 0
        var starPattern = -1
        var starText = 0
        var untilCheck = likeStepsPerCheck
        while t < subject.count {
            untilCheck -= 1
            if untilCheck == 0 {
                untilCheck = likeStepsPerCheck
                try checkLikeWork(pattern)
            }
            if p < elements.count, elements[p] == .anyOne || elements[p] == .literal(subject[t]) {
                t += 1
                p += 1
            } else if p < elements.count, elements[p] == .anyRun {
                starPattern = p
                starText = t
                p += 1
            } else if starPattern >= 0 {
                p = starPattern + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < elements.count, elements[p] == .anyRun { p += 1 }
        return p == elements.count
    }

    /// The comparisons LIKE makes between looks at its budget and for an interrupt (as
    /// ICU's MATCHES calls back every 10,000 steps).
    private static let likeStepsPerCheck = 10_000

    /// Draws on the budget for LIKE's last comparisons; throws when it is spent or the
    /// operation was interrupted.
    private static func checkLikeWork(_ pattern: String) throws {
        if MatchInterruption.current?.isRequested == true { throw PredicateEvaluationError.interrupted }
        if let budget = MatchBudget.current, !budget.spend(likeStepsPerCheck) { throw budget.spentError("LIKE", pattern: pattern) }
    }

    /// MATCHES: the ICU regular expression must match the entire string. `[c]` makes the
    /// regex case-insensitive; `[d]` strips diacritics from pattern and subject.
    ///
    /// A match is bounded (``RegexMatchError``): past the work limit, or when the running
    /// store operation is interrupted, it throws instead of answering; and it draws on the
    /// operation's ``MatchBudget`` (``MatchBudgetError``).
    static func matches(_ text: String, pattern: String, options: ComparisonOptions) throws -> Bool {
        var subject = text
        let (regexPattern, caseInsensitive) = regexForm(pattern, options)
        if !options.contains(.normalized), options.contains(.diacriticInsensitive) { subject = removingDiacritics(subject) }
        let interruption = MatchInterruption.current
        let budget = MatchBudget.current
        let matched = try RegexCache.shared.withExpression(regexPattern, caseInsensitive: caseInsensitive) { expression in
            try expression.matchesWhole(subject, reportedPattern: pattern, interruption: interruption, budget: budget)
        }
        guard let matched else {
            throw PredicateEvaluationError("invalid regular expression '\(TextExcerpt(pattern, around: 0, width: TextExcerpt.quotedWidth).text)'")
        }
        return matched
    }

    /// The pattern ICU compiles for MATCHES with these options, and whether it ignores case.
    static func regexForm(_ pattern: String, _ options: ComparisonOptions) -> (pattern: String, caseInsensitive: Bool) {
        guard !options.contains(.normalized) else { return (pattern, false) }
        let folded = options.contains(.diacriticInsensitive) ? removingDiacritics(pattern) : pattern
        return (folded, options.contains(.caseInsensitive))
    }
}
