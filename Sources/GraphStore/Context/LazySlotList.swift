/// A fixed-length list of optional slots that allocates nothing until a slot is written:
/// an object's to-many relationships.
///
/// Why not a ``SlotList``: an object read from the store has its to-manys as faults (nil)
/// until one is touched, and most objects are never asked for one; inline slots sized for
/// the sets made every object 48 bytes larger, which a big fetch or insert pays in memory
/// and page faults. Here an untouched list is one empty array and a count.
struct LazySlotList<Wrapped>: RandomAccessCollection, MutableCollection {
    private var storage: [Wrapped?] = []
    /// The number of slots.
    let count: Int

    /// A list of `count` empty slots.
    init(count: Int) {
        self.count = count
    }

    // Integer indices: the standard library supplies index(after:) and index(before:).
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Wrapped? {
        @inline(__always)
        get {
            precondition(position >= 0 && position < count, "slot index out of range")
            return storage.isEmpty ? nil : storage[position]
        }
        @inline(__always)
        _modify {
            precondition(position >= 0 && position < count, "slot index out of range")
            if storage.isEmpty { storage = Array(repeating: nil, count: count) }
            yield &storage[position]
        }
    }

    /// Changes one slot in place through a closure: the same as mutating through the
    /// subscript, but inlined, where the subscript's `_modify` coroutine stays two calls
    /// (adding a member to a to-many runs once per inserted object when seeding).
    @inline(__always)
    mutating func update<Result>(_ position: Int, _ body: (inout Wrapped?) throws -> Result) rethrows -> Result {
        precondition(position >= 0 && position < count, "slot index out of range")
        if storage.isEmpty { storage = Array(repeating: nil, count: count) }
        return try storage.withUnsafeMutableBufferPointer { try body(&$0[position]) }
    }
}

extension LazySlotList: @unchecked Sendable where Wrapped: Sendable {}
