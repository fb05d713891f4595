/// A typed object or request that does not fit the context it is used in.
public enum TypedObjectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An object is not an instance of the class a typed property, fetch or insert expects:
    /// typically an object made by an untyped fetch before the class was registered (see
    /// ``ManagedObjectContext/register(_:)``).
    case classMismatch(object: String, expected: String, found: String)
    /// The store's model has no entity of this name, which a class says it represents.
    case unknownEntity(entity: String, className: String)

    public var description: String {
        switch self {
        case .classMismatch(let object, let expected, let found):
            "\(object) is a \(found), not a \(expected) (register \(expected) with the context before objects of its entity are made)"
        case .unknownEntity(let entity, let className):
            "class \(className) represents entity \(entity), which the store's model does not have"
        }
    }
}
