import Foundation

/// The model's rules for one attribute value, checked by type: mandatory values, number
/// and date bounds, string and binary lengths, and patterns.
///
/// One function serves objects in memory (at save, or on demand) and rows streamed from a
/// store (`validate`), so both report the same failures for the same values.
enum AttributeRules {
    /// Whether an attribute has any rule worth checking (so that saving objects of
    /// entities without rules costs nothing).
    static func hasRules(_ a: AttributeDescription) -> Bool {
        guard a.derivationExpression == nil else { return false }
        return !a.isOptional || a.minValue != nil || a.maxValue != nil || a.minLength != nil || a.maxLength != nil
            || a.minDate != nil || a.maxDate != nil || a.regularExpression != nil
    }

    /// The first rule `value` breaks, in Core Data's order: presence, then bounds, then
    /// pattern; nil when it breaks none. A missing optional value breaks nothing.
    ///
    /// - Throws: ``RegexMatchError`` when the pattern cannot be decided within the limit.
    static func brokenRule(_ value: AttributeValue?, of a: AttributeDescription) throws(RegexMatchError) -> ValidationRule? {
        // A derived attribute is computed by the store, not given by the app.
        guard a.derivationExpression == nil else { return nil }
        guard let value else { return a.isOptional ? nil : .required }
        if a.type.isNumeric, let number = value.doubleValue {
            if let minimum = a.minValue, number < minimum { return .minimum(minimum) }
            if let maximum = a.maxValue, number > maximum { return .maximum(maximum) }
        }
        if case .date(let date) = value {
            if let earliest = a.minDate, date < earliest { return .earliest(earliest) }
            if let latest = a.maxDate, date > latest { return .latest(latest) }
        }
        let length: Int? =
            switch value {
            // NSString's length, which Core Data's `length` constraints count.
            case .string(let s): s.utf16.count
            case .data(let d) where a.type == .binaryData: d.count
            default: nil
            }
        if let length {
            if let maximum = a.maxLength, length > maximum { return .maximumLength(maximum) }
            if let minimum = a.minLength, length < minimum { return .minimumLength(minimum) }
        }
        if let pattern = a.regularExpression, case .string(let s) = value, try !matches(s, pattern) {
            return .pattern(pattern)
        }
        return nil
    }

    /// Whether the whole string matches (as `SELF MATCHES pattern`); a pattern that does
    /// not compile matches nothing, so the failure is reported rather than hidden.
    static func matches(_ string: String, _ pattern: String) throws(RegexMatchError) -> Bool {
        let interruption = MatchInterruption.current
        return try RegexCache.shared.withExpression(pattern, caseInsensitive: false) { expression throws(RegexMatchError) in
            do {
                return try expression.matchesWhole(string, reportedPattern: pattern, interruption: interruption)
            } catch let error as RegexMatchError {
                throw error
            } catch {
                // Without a budget only a RegexMatchError can be thrown; anything else is named as ICU's.
                throw RegexMatchError(pattern: pattern, reason: .engineFailure("\(error)"))
            }
        } ?? false
    }

    /// Whether the pattern is a valid ICU regular expression.
    static func isValidPattern(_ pattern: String) -> Bool {
        RegexCache.shared.isValid(pattern, caseInsensitive: false)
    }
}
