/// A change between two model versions that Core Data's inferred (lightweight) migration
/// does not make, with Core Data's error code and a sentence naming the entity, the
/// property and the change.
///
/// ```swift
/// refusal.code          // 134140
/// refusal.description   // "Book.price changes type from Float to String: …"
/// ```
public struct MigrationRefusal: Sendable, Hashable, CustomStringConvertible {
    /// Which of Core Data's migration errors the change gives.
    public enum Code: Int, Sendable, Hashable {
        /// `NSMigrationMissingMappingModelError`: no mapping can be inferred; a mapping
        /// model is needed.
        case mappingModelNeeded = 134140
        /// `NSMigrationError`: the mapping can be inferred but migrating the store's objects
        /// fails (a required value with nothing to fill it).
        case migrationFails = 134110
    }

    /// The error code.
    public var code: Code
    /// The destination entity (or the source entity, for a change to a removed one).
    public var entity: String
    /// The property, when the change is to one.
    public var property: String?
    /// What changes and why Core Data refuses it, as a sentence.
    public var reason: String
    /// Whether the refusal holds only when the entity has objects (a required value with
    /// nothing to fill it fails only for objects that exist): counting a store with no
    /// such objects lifts it.
    public var dependsOnObjects: Bool

    /// Creates a refusal.
    public init(_ code: Code, entity: String, property: String? = nil, _ reason: String, dependsOnObjects: Bool = false) {
        self.code = code
        self.entity = entity
        self.property = property
        self.reason = reason
        self.dependsOnObjects = dependsOnObjects
    }

    /// `Entity.property` or `Entity`.
    public var place: String { property.map { "\(entity).\($0)" } ?? entity }

    public var description: String { "\(place): \(reason) (\(code.rawValue))" }
}
