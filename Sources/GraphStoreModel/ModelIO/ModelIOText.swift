import Foundation

/// Small text helpers shared by the model readers.
enum ModelIOText {
    /// A one-line rendering of a Foundation error (their descriptions can span lines).
    static func shortError(_ error: Error) -> String {
        let text = (error as NSError).localizedDescription
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return line.isEmpty ? "\(error)" : line
    }

    /// `a, b and c`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return "none"
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }
    }
}
