/// Checks made before a save writes anything.
extension ManagedObjectContext {
    /// Validates every pending change; throws before anything is written.
    func validateForSave() throws {
        for object in deleted.values {
            for (i, r) in object.mapping.relationships.enumerated() where r.relationship.deleteRule == .deny {
                let count = r.relationship.isToMany ? (try object.loadedToMany(i).count) : (object.toOne[i].isEmpty ? 0 : 1)
                if count > 0 {
                    throw DeleteDeniedError(object: object.objectID, key: r.relationship.name, count: count)
                }
            }
        }
    }
}

/// A delete refused by a Deny rule (Core Data's 1600).
public struct DeleteDeniedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The object whose delete was refused.
    public var object: ObjectID
    /// The relationship with the Deny rule.
    public var key: String
    /// How many objects it still holds.
    public var count: Int
    /// Core Data's code, `NSValidationRelationshipDeniedDeleteError`.
    public var code: Int { 1600 }

    public var description: String {
        "\(object): cannot be deleted while \(key) still holds \(count) object\(count == 1 ? "" : "s") (delete rule Deny)"
    }
}
