import Foundation

/// Turns the text of a default value (Xcode's `defaultValueString`) into a typed value.
///
/// ```swift
/// DefaultValueParser.value("YES", for: .boolean)   // .bool(true)
/// DefaultValueParser.value("0.5", for: .decimal)   // .decimal(0.5)
/// ```
enum DefaultValueParser {
    /// The typed value, or nil when the text does not fit the type (or the type has no
    /// textual defaults: binary, transformable, composite).
    static func value(_ text: String, for type: AttributeType) -> AttributeValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .integer16, .integer32, .integer64:
            guard let range = type.integerRange, let number = integer(trimmed), range.contains(number) else { return nil }
            return .integer(number)
        case .decimal:
            return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) }
        case .double, .float:
            return Double(trimmed).map { .double($0) }
        case .string:
            return .string(text)
        case .boolean:
            return boolean(trimmed).map { .bool($0) }
        case .date:
            if let seconds = Double(trimmed) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
            return (try? Date(trimmed, strategy: .iso8601)).map { .date($0) }
        case .uuid:
            return UUID(uuidString: trimmed).map { .uuid($0) }
        case .uri:
            return URL(string: trimmed).map { .uri($0) }
        case .binaryData, .transformable, .undefined, .objectID, .composite:
            return nil
        }
    }

    /// `YES`/`NO` as Xcode writes them, and the usual spellings of true and false.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// A whole number, also when written with a fractional part of zero (`"3.0"`), or
    /// `YES`/`NO` (Xcode keeps a Boolean default when an attribute's type is changed to an
    /// integer; Core Data stores `NO` as 0, as the wire stores' model caches show).
    static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        if let flag = boolean(text) { return flag ? 1 : 0 }
        guard let real = Double(text), real.rounded() == real, abs(real) < 9.2e18 else { return nil }
        return Int64(real)
    }
}
