/// A to-one relationship as an object holds it: the destination object once resolved, or
/// only its ID (as read from a row, resolved on first use), and the stored `Z_FOK_` value.
struct ToOneSlot {
    var object: ManagedObject?
    var id: ObjectID?
    var order: Int64?

    /// Whether the slot is empty.
    var isEmpty: Bool { object == nil && id == nil }

    /// The destination's ID, resolved or not.
    var destinationID: ObjectID? { object?.objectID ?? id }

    /// Whether two slots name the same destination.
    func isSame(as other: ToOneSlot) -> Bool {
        if let a = object, let b = other.object { return a === b }
        return destinationID == other.destinationID
    }
}
