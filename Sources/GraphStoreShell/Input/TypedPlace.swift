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

    /// `column 12`, or `column 12 of the statement's line 2`.
    var description: String {
        lineInStatement == 1 ? "column \(column)" : "column \(column) of the statement's line \(lineInStatement)"
    }
}
