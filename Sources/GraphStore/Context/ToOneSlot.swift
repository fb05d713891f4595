/// A to-one relationship as an object holds it: the destination object once resolved, or
/// only its ID (as read from a row, resolved on first use), and the stored `Z_FOK_` value.
struct ToOneSlot {
    var object: ManagedObject?
    var id: ObjectID?
    /// `Z_FOK_` with `Int64.min` for none: an `Int64?` would make the slot 40 bytes rather
    /// than 32, and every object holds two slots inline. Positions are small and positive
    /// (``PersistentStore/orderValue(at:)``); a stored `Int64.min` reads as no position.
    private var storedOrder: Int64 = .min

    init(object: ManagedObject? = nil, id: ObjectID? = nil, order: Int64? = nil) {
        self.object = object
        self.id = id
        self.order = order
    }

    /// The stored `Z_FOK_` value, if any.
    var order: Int64? {
        get { storedOrder == .min ? nil : storedOrder }
        set { storedOrder = newValue ?? .min }
    }

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
