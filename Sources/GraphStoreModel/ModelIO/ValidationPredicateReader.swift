import Foundation

/// Reads an attribute's archived validation predicates (`NSValidationPredicates`) back into
/// the bounds Xcode's inspector sets: `SELF >= n` / `SELF <= n` for numbers and dates,
/// `length >= n` / `length <= n` for strings and data, `SELF MATCHES "re"` for patterns.
///
/// Predicates of any other shape cannot be expressed by ``AttributeDescription``; they are
/// returned as text so the caller can warn that they are not enforced.
struct ValidationPredicateReader {
    let archive: KeyedArchive

    private enum Subject { case value, length }

    /// Applies what it understands to `attribute`; returns the predicates it could not apply.
    func apply(_ predicates: [ArchiveValue], to attribute: inout AttributeDescription) -> [String] {
        var leftovers: [String] = []
        for value in predicates where !apply(value, to: &attribute) {
            leftovers.append(ArchivedPredicateFormatter(archive: archive).predicate(value) ?? "<\(archive.object(value)?.className ?? "unreadable predicate")>")
        }
        return leftovers
    }

    private func apply(_ value: ArchiveValue, to attribute: inout AttributeDescription) -> Bool {
        guard let predicate = archive.object(value), predicate.className == "NSComparisonPredicate",
            let subject = subject(predicate["NSLeftExpression"]),
            let right = predicate["NSRightExpression"].flatMap({ archive.object($0) }),
            right.className == "NSConstantValueExpression" || right.className == "NSAggregateExpression"
        else { return false }
        let op = predicate["NSPredicateOperator"].flatMap { archive.object($0) }?.fields ?? predicate.fields
        guard let type = archive.integer(op["NSOperatorType"]), (archive.integer(op["NSModifier"]) ?? 0) == 0,
            !archive.flag(op["NSNegate"])
        else { return false }
        let constant = right["NSConstantValue"] ?? .null
        switch (subject, type) {
        case (.value, 3): return setBound(constant, minimum: true, on: &attribute)
        case (.value, 1): return setBound(constant, minimum: false, on: &attribute)
        case (.value, 100):
            guard let pair = archive.array(right["NSCollection"] ?? constant), pair.count == 2 else { return false }
            let bounds = pair.map { archive.object($0)?["NSConstantValue"] ?? $0 }
            var copy = attribute
            guard setBound(bounds[0], minimum: true, on: &copy), setBound(bounds[1], minimum: false, on: &copy) else { return false }
            attribute = copy
            return true
        case (.value, 6):
            guard attribute.type == .string, let pattern = archive.string(constant) else { return false }
            attribute.regularExpression = pattern
            return true
        case (.length, 0...3):
            // Lengths are small; anything outside 0...Int32.max is not a length bound.
            guard let number = archive.integer(constant), (0...Int64(Int32.max)).contains(number) else { return false }
            let length = Int(number)
            switch type {
            case 0: attribute.maxLength = max(length - 1, 0)
            case 1: attribute.maxLength = length
            case 2: attribute.minLength = length + 1
            default: attribute.minLength = length
            }
            return true
        default:
            return false
        }
    }

    /// `SELF` or `length` (as a key path on SELF, or the `length:` function).
    private func subject(_ value: ArchiveValue?) -> Subject? {
        guard let value, let object = archive.object(value) else { return nil }
        if object.className == "NSSelfExpression" { return .value }
        switch ArchivedPredicateFormatter(archive: archive).expression(value) {
        case "length", "SELF.length", "length(SELF)": return .length
        case "SELF": return .value
        default: return nil
        }
    }

    private func setBound(_ constant: ArchiveValue, minimum: Bool, on attribute: inout AttributeDescription) -> Bool {
        if attribute.type == .date, let date = archive.date(constant) ?? archive.number(constant).map({ Date(timeIntervalSinceReferenceDate: $0) }) {
            if minimum { attribute.minDate = date } else { attribute.maxDate = date }
            return true
        }
        guard attribute.type.isNumeric, let number = archive.number(constant) else { return false }
        if minimum { attribute.minValue = number } else { attribute.maxValue = number }
        return true
    }
}
