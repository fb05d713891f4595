/// A `#Predicate` (or a `SortDescriptor`) that cannot be turned into the model's predicate
/// language, and so into SQL: thrown when the ``FetchRequest`` is made, naming the part, never
/// a fetch of everything.
///
/// ```swift
/// do {
///     _ = try FetchRequest<Book>(predicate: #Predicate { $0.title?.count == 3 })
/// } catch let error as PredicateTranslationError {
///     print(error)   // cannot fetch with `$0.title.count`: a string's length has no counterpart in a fetch …
/// }
/// ```
public struct PredicateTranslationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The part that cannot be translated, written as Swift (`$0.title.count`).
    public let part: String
    /// Why.
    public let reason: String

    public var description: String { "cannot fetch with `\(part)`: \(reason)" }
}
