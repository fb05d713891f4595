/// The `[c]`, `[d]`, `[n]` and `[l]` modifiers of a comparison.
///
/// They only affect string operands. The raw values are those of
/// `NSComparisonPredicate.Options`, so a SQL compiler can pass them on unchanged.
///
/// ```swift
/// let options: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]   // [cd]
/// ```
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `[c]`: compare without regard to case.
    public static let caseInsensitive = ComparisonOptions(rawValue: 0x01)
    /// `[d]`: compare without regard to diacritics (`é` equals `e`).
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 0x02)
    /// `[n]`: operands are already normalized, so compare them as they are; supersedes c/d.
    public static let normalized = ComparisonOptions(rawValue: 0x04)
    /// `[l]`: locale-sensitive comparison.
    public static let localeSensitive = ComparisonOptions(rawValue: 0x08)

    /// The letters between the brackets, in canonical order (`"cd"`), empty for none.
    public var letters: String {
        var text = ""
        if contains(.caseInsensitive) { text += "c" }
        if contains(.diacriticInsensitive) { text += "d" }
        if contains(.normalized) { text += "n" }
        if contains(.localeSensitive) { text += "l" }
        return text
    }

    /// Options from bracket letters (`"cd"`), or nil if a letter is not one of c, d, n, l.
    public init?(letters: String) {
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n": options.insert(.normalized)
            case "l": options.insert(.localeSensitive)
            default: return nil
            }
        }
        self = options
    }
}
