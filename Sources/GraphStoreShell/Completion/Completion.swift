/// The completions for the word before the cursor.
///
/// ```swift
/// let completion = shell.completions(for: ".rows Bo")
/// completion.word                        // "Bo"
/// completion.candidates.map(\.text)      // ["Book", "BookCategory"]
/// completion.edit                        // insert "ok": what both share
/// ```
public struct Completion: Sendable, Equatable {
    /// The partial word the candidates would replace (the text typed since the last separator).
    public var word: String
    /// The candidates, in the order shown.
    public var candidates: [CompletionCandidate]

    /// Creates a completion.
    public init(word: String, candidates: [CompletionCandidate]) {
        self.word = word
        self.candidates = candidates
    }

    /// A change to the line: delete characters before the cursor, then insert text.
    public struct Edit: Sendable, Equatable {
        /// How many characters (Unicode scalars, as libedit counts) to delete first.
        public var deleteCount: Int
        /// The text to insert.
        public var insert: String
    }

    /// What TAB does to the line: the single candidate with its terminator (a space after a
    /// whole word), else the longest prefix all candidates share; nil when nothing can be
    /// added, and the candidates should be listed instead.
    public var edit: Edit? {
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            return replacement(for: first.text, terminator: first.terminator)
        }
        let shared = candidates.dropFirst().reduce(first.text) { Self.commonPrefix($0, $1.text) }
        // A shared prefix that differs from the typed word only in case is no progress.
        guard shared.count > word.count else { return nil }
        return replacement(for: shared, terminator: "")
    }

    private func replacement(for text: String, terminator: String) -> Edit {
        if text.hasPrefix(word) {
            return Edit(deleteCount: 0, insert: String(text.dropFirst(word.count)) + terminator)
        }
        // Matched without regard to case: retype the whole word.
        return Edit(deleteCount: word.unicodeScalars.count, insert: text + terminator)
    }

    /// The longest common prefix, compared without regard to case but taken from `a`.
    static func commonPrefix(_ a: String, _ b: String) -> String {
        var end = a.startIndex
        var other = b.startIndex
        while end < a.endIndex, other < b.endIndex, a[end].lowercased() == b[other].lowercased() {
            end = a.index(after: end)
            other = b.index(after: other)
        }
        return String(a[..<end])
    }
}

/// One possible completion.
public struct CompletionCandidate: Sendable, Equatable {
    /// The whole word that replaces the partial one (`category.name`, `examples/Book.sqlite`).
    public var text: String
    /// What the listing shows (`name`, `Book.sqlite`).
    public var display: String
    /// Added after the word when it is the only candidate: a space after a finished word,
    /// nothing after a directory or a relationship that a key path may continue through.
    public var terminator: String

    /// Creates a candidate.
    public init(_ text: String, display: String? = nil, terminator: String = " ") {
        self.text = text
        self.display = display ?? text
        self.terminator = terminator
    }
}

/// Candidates laid out in columns under the line, as shells list them.
enum CompletionListing {
    static func columns(_ items: [String], width: Int) -> String {
        guard !items.isEmpty else { return "" }
        let cell = (items.map(DisplayWidth.of).max() ?? 0) + 2
        let perRow = max(1, width / max(cell, 1))
        let rows = (items.count + perRow - 1) / perRow
        var text = ""
        for row in 0..<rows {
            var line = ""
            // Down the columns first, as ls does.
            for column in 0..<perRow {
                let i = column * rows + row
                guard i < items.count else { break }
                let item = items[i]
                line += item + String(repeating: " ", count: max(0, cell - DisplayWidth.of(item)))
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
