/// One value of a dictionary result: an attribute's value, or a to-one destination's ID.
///
/// ```swift
/// var request = FetchRequest(entityName: "Book")
/// request.propertiesToFetch = ["title", "category"]
/// let rows = try context.fetchDictionaries(request)
/// rows[0]["title"]      // .attribute(.string("Dune"))
/// rows[0]["category"]   // .objectID(BookCategory/p1)
/// ```
public enum FetchedValue: Sendable, Hashable, CustomStringConvertible {
    case attribute(AttributeValue)
    case objectID(ObjectID)

    /// The attribute value, if this is one.
    public var attributeValue: AttributeValue? {
        if case .attribute(let value) = self { return value }
        return nil
    }

    /// The destination's object ID, if this is a to-one's value.
    ///
    /// ```swift
    /// let category = dictionary["category"]?.objectID
    /// ```
    public var objectID: ObjectID? {
        if case .objectID(let id) = self { return id }
        return nil
    }

    public var description: String {
        switch self {
        case .attribute(let value): value.description
        case .objectID(let id): id.description
        }
    }
}
