/// A word of a usage line that the user replaces with a value (`ENTITY`, `FILE`, `N`),
/// and what kind of value it is: that decides what TAB completes, whether the value is
/// checked (a whole number), and whether it takes the rest of the line (`PREDICATE`).
///
/// ```swift
/// static let limit = Placeholder("LIMIT", .wholeNumber(from: 0))
/// ```
public struct Placeholder: Sendable, Hashable {
    /// The name shown in the usage line.
    public var name: String
    /// What the value is.
    public var kind: Kind

    /// What a placeholder stands for.
    public enum Kind: Sendable, Hashable {
        /// Any one word; nothing to complete.
        case word
        /// An entity name (`Book`).
        case entity
        /// A table of the store's file (`Z_PRIMARYKEY`).
        case table
        /// An entity, or a key path from one (`Book.category`).
        case entityKeyPath
        /// An object, `ENTITY/KEY` with more after it (`Book/p1`, `Item/p1.unit`): the
        /// entity name starts the word.
        case object
        /// A key path from the entity named before it.
        case keyPath
        /// `key=value`, a key of the entity named before it.
        case assignment
        /// A file name.
        case file
        /// A command name.
        case command
        /// An output mode.
        case mode
        /// The name of a `.parameter`.
        case parameter
        /// A whole number, `from` or more, and `to` or less when there is a `to`.
        case wholeNumber(from: Int, to: Int? = nil)
        /// The rest of the line, as typed (quotes kept).
        case text
        /// The rest of the line, a predicate (completed as one).
        case predicate
    }

    /// Creates a placeholder.
    public init(_ name: String, _ kind: Kind = .word) {
        self.name = name
        self.kind = kind
    }

    /// Whether the placeholder takes every word to the end of the line.
    var takesRestOfLine: Bool { kind == .text || kind == .predicate }

    /// The value checked: nil when it fits, else what it must be (`a whole number from 0
    /// to 255`).
    func requirement(for word: String) -> String? {
        guard case .wholeNumber(let minimum, let maximum) = kind else { return nil }
        if let n = Int(word), n >= minimum, maximum.map({ n <= $0 }) ?? true { return nil }
        if let maximum { return "a whole number from \(minimum) to \(maximum)" }
        return minimum == 0 ? "a whole number" : "a whole number, at least \(minimum)"
    }
}
