/// The value of one property of an object, attribute or relationship, as
/// ``ManagedObject/changedValues()`` and ``ManagedObject/committedValues(forKeys:)`` hand it
/// out (Core Data's `[String: Any]`, typed).
///
/// ```swift
/// if case .attribute(let price)? = book.changedValues()["price"] { print("new price", price ?? "none") }
/// if book.changedValues()["authors"] != nil { /* the authors changed */ }
/// ```
public enum PropertyValue {
    /// An attribute's value (nil for none).
    case attribute(AttributeValue?)
    /// A to-one relationship's destination (nil for none).
    case toOne(ManagedObject?)
    /// A to-many relationship's members (in order, for an ordered one).
    case toMany([ManagedObject])

    /// The attribute value, if this is an attribute.
    public var attributeValue: AttributeValue? {
        if case .attribute(let value) = self { return value }
        return nil
    }

    /// The objects a relationship holds (none or one for a to-one); empty for an attribute.
    public var objects: [ManagedObject] {
        switch self {
        case .attribute: []
        case .toOne(let object): object.map { [$0] } ?? []
        case .toMany(let objects): objects
        }
    }
}
