/// The model names of a class's typed properties, by key path: how a `#Predicate` or a
/// `SortDescriptor` over the class is turned into the model's key paths.
///
/// Generated classes carry one (see ``EntityObject/propertyName(for:)``); a hand-written
/// class lists its own, inherited properties included (a key path names its root class, so
/// `\Novel.title` is not `\Book.title`), and the attributes of its to-ones' destinations
/// read through the optional, by their key path (`\.category?.name`: what
/// `SortDescriptor(\.category?.name)` sorts by):
///
/// ```swift
/// static let propertyNames: PropertyNames<Book> = [\.title: "title", \.price: "price", \.category: "category", \.category?.name: "category.name"]
/// class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }
/// ```
public struct PropertyNames<Root: AnyObject>: Sendable, ExpressibleByDictionaryLiteral {
    private let entries: [(keyPath: PartialKeyPath<Root> & Sendable, name: String)]

    /// The names, as a dictionary literal from key path to model property name.
    public init(dictionaryLiteral elements: (PartialKeyPath<Root> & Sendable, String)...) {
        entries = elements.map { (keyPath: $0.0, name: $0.1) }
    }

    /// The model name of the property `keyPath` reads, if it is one of these.
    public func name(for keyPath: AnyKeyPath) -> String? {
        entries.first { $0.keyPath == keyPath }?.name
    }
}
