import Foundation
import GraphStore

/// Reads a value typed in a command as its attribute's type, with a message that names the
/// attribute, its type and what was expected when the text does not fit.
enum InlineValue {
    static func parse(_ assignment: Assignment, as attribute: AttributeDescription, entity: String) throws(ShellError) -> AttributeValue? {
        let text = assignment.text
        if !assignment.quoted, ["nil", "null"].contains(text.lowercased()) { return nil }
        func fail(_ expected: String) -> ShellError {
            ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName); \(assignment.quoted ? "\"\(text)\"" : text) is not \(expected)")
        }
        switch attribute.type {
        case .undefined, .objectID, .composite:
            throw ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName), which cannot be typed in a command")
        default:
            // The seed text reader: one spelling of each type for commands, files and updates.
            do {
                return try SeedValueText.parse(text, as: attribute)
            } catch {
                if let range = attribute.type.integerRange, error.expected.hasPrefix("within") {
                    throw ShellError("\(entity).\(attribute.name) is \(attribute.type.xcodeName); \(text) is outside \(range.lowerBound)…\(range.upperBound)")
                }
                throw fail(error.expected)
            }
        }
    }
}
