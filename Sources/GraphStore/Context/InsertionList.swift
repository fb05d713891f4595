/// The objects inserted since the last save, in insertion order.
///
/// Appending costs no hashing (inserting many objects is the hot path of seeding a store);
/// an inserted object that is deleted again is dropped lazily, by its life-cycle state.
struct InsertionList {
    private var objects: [ManagedObject] = []
    private var dropped = 0

    /// Adds a newly inserted object.
    mutating func append(_ object: ManagedObject) { objects.append(object) }

    /// Notes that an inserted object was deleted again (its state is no longer `.inserted`).
    mutating func drop(_ object: ManagedObject) { dropped += 1 }

    /// Takes back an insert (undo); the caller has already changed the object's state.
    /// Undo runs newest first, so the object is usually the last one: then it and any
    /// dropped objects behind it are popped, which keeps undoing a large insert O(1) each.
    mutating func takeBack(_ object: ManagedObject) {
        guard objects.last === object else {
            dropped += 1
            return
        }
        objects.removeLast()
        while dropped > 0, let last = objects.last, last.lifecycle != .inserted {
            objects.removeLast()
            dropped -= 1
        }
    }

    /// Lists an object again (redo of an insert, undo of a delete); call it before the
    /// object's state becomes `.inserted`. A list holding dropped objects is compacted
    /// first, so that the object is never listed twice (once per compaction, not per call).
    mutating func restore(_ object: ManagedObject) {
        if dropped > 0 {
            objects.removeAll { $0.lifecycle != .inserted }
            dropped = 0
        }
        objects.append(object)
    }

    /// The objects still inserted, in insertion order.
    var values: [ManagedObject] {
        dropped == 0 ? objects : objects.filter { $0.lifecycle == .inserted }
    }

    /// How many objects are still inserted.
    var count: Int { objects.count - dropped }

    /// Whether no object is inserted.
    var isEmpty: Bool { objects.count == dropped }
}

/// A set of relationship indexes that changed, as bits (entities with more than 64
/// relationships spill into a set).
struct IndexMask {
    private var bits: UInt64 = 0
    private var overflow: Set<Int> = []

    mutating func insert(_ index: Int) {
        if index < 64 { bits |= 1 << UInt64(index) } else { overflow.insert(index) }
    }

    var isEmpty: Bool { bits == 0 && overflow.isEmpty }

    /// The indexes in increasing order.
    var indices: [Int] {
        if isEmpty { return [] }
        var result: [Int] = []
        var remaining = bits
        while remaining != 0 {
            let index = remaining.trailingZeroBitCount
            result.append(index)
            remaining &= remaining - 1
        }
        return result + overflow.sorted()
    }
}

extension IndexMask: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: Int...) {
        for element in elements { insert(element) }
    }
}
