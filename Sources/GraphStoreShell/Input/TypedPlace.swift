import GraphStore

/// Where a position in a command stands in what was typed: the line it is on and its
/// column from the start of that line (1-based, in Unicode scalars, as predicate errors
/// count), however the statement was split into commands or continued over lines.
///
/// ```swift
/// let line = "count Book; fetch Book where price >"
/// let predicate = line[line.range(of: "price")!.lowerBound...]
/// TypedPlace(predicate, scalarOffset: 7).description   // "column 37"
/// ```
struct TypedPlace: CustomStringConvertible {
    /// The whole line the position is on.
    var line: String
    /// The 1-based column on it.
    var column: Int
    /// The line's number in the statement, from 1 (a statement continued over lines).
    var lineInStatement: Int

    /// The place `offset` scalars into `text`, a slice of the statement it was typed in.
    init(_ text: Substring, scalarOffset offset: Int) {
        let whole = text.base.unicodeScalars
        let fault = whole.index(text.startIndex, offsetBy: max(offset, 0), limitedBy: whole.endIndex) ?? whole.endIndex
        let before = whole[..<fault]
        let lineStart = before.lastIndex(of: "\n").map { whole.index(after: $0) } ?? whole.startIndex
        let lineEnd = whole[fault...].firstIndex(of: "\n") ?? whole.endIndex
        line = String(text.base[lineStart..<lineEnd])
        column = whole.distance(from: lineStart, to: fault) + 1
        lineInStatement = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// `column 12`: the line is named by the message's `FILE:LINE:` (see ``ShellError``).
    var description: String { "column \(column)" }

    /// The line it is on, cut around it, with a caret under it.
    var pointer: String { TextExcerpt(line, around: column - 1).pointer }

    /// Where `token` was typed in `command` (a slice of its statement): its first
    /// occurrence as a whole word outside quotes, matched exactly, else in any case, else
    /// anywhere (a pattern inside its quotes); nil when it is not there.
    ///
    /// ```swift
    /// let statement = "fetch Book\n  where nosuch == 1"
    /// TypedPlace(locating: "nosuch", in: statement[...])?.lineInStatement   // 2
    /// ```
    init?(locating token: String, in command: Substring) {
        guard !token.isEmpty else { return nil }
        let target = Array(token.unicodeScalars)
        let scalars = Array(command.unicodeScalars)
        var starts: [Int] = []
        var quotes = QuoteState()
        var previousIsWordScalar = false
        for (offset, scalar) in scalars.enumerated() {
            let outside = quotes.advance(scalar)
            if outside, !previousIsWordScalar { starts.append(offset) }
            previousIsWordScalar = outside && Self.isWordScalar(scalar)
        }
        func matches(_ start: Int, caseInsensitive: Bool) -> Bool {
            let end = start + target.count
            guard end <= scalars.count, end == scalars.count || !Self.isWordScalar(scalars[end]) else { return false }
            let typed = String(String.UnicodeScalarView(scalars[start..<end]))
            return caseInsensitive ? typed.lowercased() == token.lowercased() : scalars[start..<end].elementsEqual(target)
        }
        let anywhere = { (0..<scalars.count).first { scalars[$0...].starts(with: target) } }
        guard
            let start = starts.first(where: { matches($0, caseInsensitive: false) })
                ?? starts.first(where: { matches($0, caseInsensitive: true) }) ?? anywhere()
        else { return nil }
        self.init(command, scalarOffset: start)
    }

    /// The scalars of a key path, a name or a number: what a word is made of.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "_.@#$".unicodeScalars.contains(scalar)
    }
}
