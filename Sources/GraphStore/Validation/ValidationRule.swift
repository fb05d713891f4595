import Foundation

/// The rule a value broke: what the model (or the app's code) asks of it.
///
/// A rule knows its Core Data code and how to say, in a sentence, why a value breaks it;
/// ``ValidationError`` carries one. Its `description` is the short form shown in the REPL's
/// `rule` column.
///
/// ```swift
/// ValidationRule.minimum(15).description        // "minimum 15"
/// ValidationRule.minimum(15).code               // .numberTooSmall (1620)
/// ValidationRule.unique(["isbn"]).description   // "unique isbn"
/// ```
public enum ValidationRule: Sendable, Hashable, CustomStringConvertible {
    /// The property must have a value (a non-optional attribute or to-one).
    case required
    /// A number must be at least this.
    case minimum(Double)
    /// A number must be at most this.
    case maximum(Double)
    /// A date must not be before this.
    case earliest(Date)
    /// A date must not be after this.
    case latest(Date)
    /// A string (characters, as Core Data counts them: UTF-16 units) or binary value (bytes)
    /// must be at least this long.
    case minimumLength(Int)
    /// A string or binary value must be at most this long.
    case maximumLength(Int)
    /// A string must match this regular expression as a whole (ICU syntax, as `MATCHES`).
    case pattern(String)
    /// A to-many relationship must hold at least this many objects.
    case minimumCount(Int)
    /// A to-many relationship must hold at most this many objects.
    case maximumCount(Int)
    /// A relationship with the Deny delete rule must be empty for its object to be deleted.
    case denyDelete
    /// The values of these properties must be unique among the entity's objects.
    case unique([String])
    /// A reference must name an object that exists.
    case existingDestination
    /// A one-to-one's destination must point back through the named inverse.
    case matchingInverse(String)
    /// A stored value must be readable as its attribute's type.
    case readable(expected: String)
    /// A rule of the app's own code, in its own words.
    case custom(String)

    /// The Core Data code of a failure of this rule.
    public var code: ValidationErrorCode {
        switch self {
        case .required: .missingMandatoryProperty
        case .minimum: .numberTooSmall
        case .maximum: .numberTooLarge
        case .earliest: .dateTooSoon
        case .latest: .dateTooLate
        case .minimumLength: .stringTooShort
        case .maximumLength: .stringTooLong
        case .pattern: .stringPatternMismatch
        case .minimumCount: .tooFewObjects
        case .maximumCount: .tooManyObjects
        case .denyDelete: .deleteDenied
        case .unique: .constraintConflict
        case .existingDestination, .matchingInverse: .referentialIntegrity
        case .readable, .custom: .invalid
        }
    }

    /// The rule in a few words: `minimum 15`, `max length 200`, `delete rule Deny`.
    public var description: String {
        switch self {
        case .required: "required"
        case .minimum(let m): "minimum \(AttributeValue.format(m))"
        case .maximum(let m): "maximum \(AttributeValue.format(m))"
        case .earliest(let d): "not before \(AttributeValue.iso8601(d))"
        case .latest(let d): "not after \(AttributeValue.iso8601(d))"
        case .minimumLength(let n): "min length \(n)"
        case .maximumLength(let n): "max length \(n)"
        case .pattern(let p): "matches \(p)"
        case .minimumCount(let n): "min count \(n)"
        case .maximumCount(let n): "max count \(n)"
        case .denyDelete: "delete rule Deny"
        case .unique(let keys): "unique \(keys.joined(separator: ", "))"
        case .existingDestination: "destination exists"
        case .matchingInverse(let inverse): "inverse \(inverse) points back"
        case .readable(let expected): "readable as \(expected)"
        case .custom(let reason): reason
        }
    }

    /// Why `value` of `key` breaks the rule, as the part of a message after `Book/p7: `.
    func failure(key: String?, value: AttributeValue?, related: [ObjectID]) -> String {
        let subject = [key, value.map(\.quotedInMessages)].compactMap { $0 }.joined(separator: " ")
        switch self {
        case .required:
            return "\(key ?? "a value") has no value, but it is required"
        case .minimum(let m):
            return "\(subject) is below the minimum \(AttributeValue.format(m))"
        case .maximum(let m):
            return "\(subject) is above the maximum \(AttributeValue.format(m))"
        case .earliest(let d):
            return "\(subject) is before the earliest allowed date \(AttributeValue.iso8601(d))"
        case .latest(let d):
            return "\(subject) is after the latest allowed date \(AttributeValue.iso8601(d))"
        case .minimumLength(let n):
            return "\(subject) is \(ValidationRule.length(of: value)) long, shorter than the minimum length \(n)"
        case .maximumLength(let n):
            return "\(subject) is \(ValidationRule.length(of: value)) long, longer than the maximum length \(n)"
        case .pattern(let p):
            if !AttributeRules.isValidPattern(p) {
                return "\(subject) cannot be checked: the pattern \(p) is not a valid regular expression"
            }
            return "\(subject) does not match the pattern \(p)"
        case .minimumCount(let n):
            return "\(key ?? "the relationship") holds \(ValidationRule.objects(value)), fewer than the minimum \(n)"
        case .maximumCount(let n):
            return "\(key ?? "the relationship") holds \(ValidationRule.objects(value)), more than the maximum \(n)"
        case .denyDelete:
            let holds = related.isEmpty ? ValidationRule.objects(value) : ValidationRule.list(related)
            return "cannot be deleted while \(key ?? "a relationship") still holds \(holds) (delete rule Deny)"
        case .unique(let keys):
            let together = keys.count > 1
            let others = related.isEmpty ? "another object" : ValidationRule.list(related)
            return "\(subject) \(together ? "are" : "is") not unique: \(others) \(related.count > 1 ? "have" : "has") the same "
                + "\(together ? "values" : "value") (uniqueness constraint on \(keys.joined(separator: ", ")))"
        case .existingDestination:
            let target = related.first.map { "\($0)" } ?? value.map { "key \($0)" } ?? "an object"
            return "\(key ?? "a relationship") points at \(target), which does not exist"
        case .matchingInverse(let inverse):
            let target = related.first.map { "\($0)" } ?? "an object"
            let back = related.count > 1 ? "points at \(related[1])" : "is empty"
            return "\(key ?? "a relationship") points at \(target), whose \(inverse) \(back)"
        case .readable(let expected):
            // The value is the store's own account of what it found (`text "abc"`, a
            // reference to a missing external file).
            return "\(key ?? "a column") cannot be read as \(expected): the store holds \(value?.description ?? "something else")"
        case .custom(let reason):
            // A rule about a value says the value is not valid; one about a property as a
            // whole (a relationship, say) just names it.
            guard let key else { return reason }
            return value == nil ? "\(key): \(reason)" : "\(subject) is not valid: \(reason)"
        }
    }

    private static func length(of value: AttributeValue?) -> String {
        switch value {
        case .string(let s)?: "\(s.utf16.count) character\(s.utf16.count == 1 ? "" : "s")"
        case .data(let d)?: "\(d.count) byte\(d.count == 1 ? "" : "s")"
        default: "of unknown length"
        }
    }

    private static func objects(_ value: AttributeValue?) -> String {
        let n = value?.integerValue ?? 0
        return "\(n) object\(n == 1 ? "" : "s")"
    }

    /// `Item/p1, Item/p2 and 3 more`.
    static func list(_ ids: [ObjectID]) -> String {
        let shown = ids.prefix(3).map(\.description).joined(separator: ", ")
        return ids.count > 3 ? "\(shown) and \(ids.count - 3) more" : shown
    }
}
