/// An object that answers `FUNCTION(object, 'selector:', args…)` itself: what a mapping
/// model's expressions send to `$manager`, `$entityPolicy` or a registered class, which
/// Core Data dispatches through the Objective-C runtime.
///
/// ```swift
/// struct Names: SelectorReceiver {
///     func value(forKey key: String) -> PredicateValue { .null }
///     func perform(_ selector: String, _ arguments: [PredicateValue]) throws -> PredicateValue? {
///         selector == "firstWord:" ? arguments.first.map { .string(String($0.stringValue?.split(separator: " ").first ?? "")) } : nil
///     }
/// }
/// ```
protocol SelectorReceiver: KeyValueSource {
    /// The result of sending `selector` with `arguments`, or nil when the receiver does not
    /// answer it (the evaluator then says so, naming the selector).
    func perform(_ selector: String, _ arguments: [PredicateValue]) throws -> PredicateValue?
}
