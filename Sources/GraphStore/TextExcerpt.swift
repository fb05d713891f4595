/// A readable window of a text that an error message echoes (SQL, a predicate, a command
/// line): at most `width` Unicode scalars around the position of the problem, with `…`
/// where text was cut, so that a 1,000-term predicate gives a one-line message.
///
/// Line breaks and tabs show as spaces, so that the excerpt stays on one line and a caret
/// under it lines up (columns count Unicode scalars, as ``PredicateParseError`` does).
///
/// ```swift
/// let predicate = String(repeating: "a == 1 AND ", count: 1000) + "b =="   // 11,004 scalars
/// let excerpt = TextExcerpt(predicate, around: 11_004)   // the end, where a value is missing
/// excerpt.text     // "…a == 1 AND a == 1 AND … b ==": "…" and the last 200 scalars
/// excerpt.column   // 202, just past "b ==" in the excerpt
/// print(excerpt.pointer)   // the excerpt, and a caret under the column
/// ```
public struct TextExcerpt: Sendable, Hashable {
    /// The width of an excerpt of a whole statement or predicate.
    public static let defaultWidth = 200
    /// The width of a value quoted inside a message (a pattern, a token).
    public static let quotedWidth = 60

    /// The excerpt, with `…` at either end where text was cut.
    public let text: String
    /// The 1-based column in `text` of the position the excerpt was taken around.
    public let column: Int
    /// Whether text was left out.
    public var isCut: Bool { text.hasPrefix("…") || text.hasSuffix("…") }

    /// The excerpt of `full` around the 0-based scalar `offset` (clamped to the text, and
    /// to just past its end for a problem at the end).
    public init(_ full: String, around offset: Int, width: Int = TextExcerpt.defaultWidth) {
        let scalars = Array(full.unicodeScalars)
        let position = min(max(offset, 0), scalars.count)
        let width = max(width, 2)
        var start = 0
        var end = scalars.count
        if scalars.count > width {
            // The position sits two thirds of the way in: what led to a problem says more
            // than what follows it.
            start = min(max(position - width * 2 / 3, 0), scalars.count - width)
            end = start + width
        }
        var view = String.UnicodeScalarView()
        if start > 0 { view.append("…") }
        for scalar in scalars[start..<end] {
            view.append(scalar == "\n" || scalar == "\r" || scalar == "\t" ? " " : scalar)
        }
        if end < scalars.count { view.append("…") }
        text = String(view)
        column = position - start + 1 + (start > 0 ? 1 : 0)
    }

    /// The excerpt of a text with an error at a UTF-8 byte offset (SQLite reports those).
    public init(_ full: String, aroundUTF8Offset offset: Int, width: Int = TextExcerpt.defaultWidth) {
        let utf8 = full.utf8
        let clamped = utf8.index(utf8.startIndex, offsetBy: max(offset, 0), limitedBy: utf8.endIndex) ?? utf8.endIndex
        let scalarOffset = full.unicodeScalars[..<clamped].count
        self.init(full, around: scalarOffset, width: width)
    }

    /// Two indented lines: the excerpt, and a caret under its column.
    public var pointer: String {
        "  " + text + "\n  " + String(repeating: " ", count: column - 1) + "^"
    }
}
