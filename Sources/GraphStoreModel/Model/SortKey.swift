/// One key of a fetch's order: a key path (an attribute, through to-one relationships),
/// the direction, and whether strings compare without regard to case.
///
/// Named `SortKey` so as not to collide with Foundation's `SortDescriptor`.
///
/// ```swift
/// let order = [SortKey("category.name"), SortKey("title", ascending: false, caseInsensitive: true)]
/// ```
public struct SortKey: Sendable, Hashable {
    /// The key path (`"title"`, `"category.name"`).
    public var keyPath: String
    /// Smallest first (the default) or largest first. nil sorts before every value.
    public var ascending: Bool
    /// Whether strings are compared case-folded (`[c]` folding, as `==[c]` uses).
    public var caseInsensitive: Bool

    /// A sort key.
    public init(_ keyPath: String, ascending: Bool = true, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.ascending = ascending
        self.caseInsensitive = caseInsensitive
    }
}
