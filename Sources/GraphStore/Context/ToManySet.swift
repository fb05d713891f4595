import OrderedCollections

/// The members of a to-many relationship, in order, with O(1) membership.
///
/// Members added by inverse maintenance are already known not to be present (the to-one
/// on their side did not point here), so they are kept in an unhashed tail until the set
/// is next read: building a large relationship object by object costs no hashing.
struct ToManySet: Equatable {
    private var hashed: OrderedSet<ObjectRef>
    private var tail: [ObjectRef] = []

    init(_ members: OrderedSet<ObjectRef> = []) { hashed = members }

    /// The members, after folding in the unhashed tail.
    mutating func settled() -> OrderedSet<ObjectRef> {
        if !tail.isEmpty {
            hashed.append(contentsOf: tail)
            tail = []
        }
        return hashed
    }

    /// The members, tail included, without changing the set (for reading a kept copy).
    var settledMembers: OrderedSet<ObjectRef> {
        var copy = self
        return copy.settled()
    }

    /// Adds a member known not to be present, without hashing it now.
    mutating func appendKnownAbsent(_ ref: ObjectRef) { tail.append(ref) }

    /// Adds a member at a position (at the end when past it); false if already present.
    mutating func insert(_ ref: ObjectRef, at position: Int) -> Bool {
        _ = settled()
        if position >= hashed.count { return hashed.append(ref).inserted }
        return hashed.insert(ref, at: max(position, 0)).inserted
    }

    /// Removes a member; false if it was not present.
    mutating func remove(_ ref: ObjectRef) -> Bool {
        _ = settled()
        return hashed.remove(ref) != nil
    }

    /// The number of members.
    var count: Int { hashed.count + tail.count }

    static func == (a: ToManySet, b: ToManySet) -> Bool {
        var a = a
        var b = b
        return a.settled() == b.settled()
    }
}
