/// A context's identity map: its registered (stored) objects by entity number and `Z_PK`.
///
/// Every row a fetch reads is looked up here, and every new object inserted (and, when
/// enumerating, removed again), so it is an open-addressing table keyed by two integers
/// with a multiplicative hash, rather than a dictionary hashing whole ``ObjectID``s
/// (SipHash over the key, then an ID comparison that includes the store's UUID string).
///
/// Only permanent IDs are registered. Lookups by ``ObjectID`` also check the store UUID, so
/// an ID from another store never finds an object here.
///
/// The buckets are a ``RetainedBuckets`` (see `UncheckedStorage.swift`): a plain buffer
/// whose entries hold their objects by one manually counted reference each, so that making
/// and growing the table is zeroing and copying memory.
final class ObjectRegistry {
    private var buckets: RetainedBuckets<ManagedObject>?
    /// The number of buckets: zero, or a power of two of at least 16.
    private var capacity = 0
    /// `capacity - 1`, or -1 while nothing was allocated.
    private var mask = -1
    private var shift = 64
    /// The number of registered objects.
    private(set) var count = 0

    /// Below this many buckets (1.5 MiB) the table grows fourfold, above it twofold: a
    /// fetch of a thousand objects into a new context then allocates it five times, not
    /// nine, and moves a third of the entries (zeroing and moving were a twentieth of such
    /// a fetch).
    static let quadruplingBelow = 1 << 16

    init() {}

    deinit {
        removeAll()
    }

    /// Lets go of every object. The table is empty before the first is released, so that
    /// a `deinit` run by the release finds it so.
    func removeAll() {
        guard let old = buckets else { return }
        buckets = nil
        (capacity, mask, shift, count) = (0, -1, 64, 0)
        old.releaseAll()
        old.deallocate()
    }

    /// Whether no object is registered.
    var isEmpty: Bool { count == 0 }

    /// The home bucket: keys are taken eight at a time (`key >> 3`), each group hashed to a
    /// block of eight buckets, and the key's low three bits pick the bucket in the block.
    /// Consecutive keys (a save's new objects, a fetch in key order) then land side by side,
    /// so registering 170,000 saved objects walks the table instead of missing the cache
    /// once per object; unrelated groups still spread over the whole table.
    @inline(__always)
    private func bucket(_ number: Int, _ key: Int64) -> Int {
        let group = UInt64(bitPattern: key) >> 3
        let mixed = (group &+ UInt64(truncatingIfNeeded: number) &* 0x2545_F491_4F6C_DD1D) &* 0x9E37_79B9_7F4A_7C15
        // The table has at least 16 buckets, so a block of eight always fits.
        return (Int(truncatingIfNeeded: mixed >> UInt64(shift)) & ~7) | Int(truncatingIfNeeded: key & 7)
    }

    /// The position of an object, or nil.
    @inline(__always)
    private func find(_ number: Int, _ key: Int64) -> Int? {
        guard count > 0, let buckets else { return nil }
        var i = bucket(number, key)
        while true {
            guard !buckets.isFree(i) else { return nil }
            if buckets.key(i) == key, buckets.number(i) == number { return i }
            i = (i &+ 1) & mask
        }
    }

    /// The registered object of entity `number` with key `key`.
    @inline(__always)
    func object(number: Int, key: Int64) -> ManagedObject? {
        find(number, key).flatMap { buckets?.object($0) }
    }

    /// The registered object with this ID.
    subscript(id: ObjectID) -> ManagedObject? {
        guard let key = id.primaryKey, let object = object(number: id.mapping.number, key: key), object.objectID == id else { return nil }
        return object
    }

    /// Registers an object under its entity number and key (replacing any other).
    func insert(_ object: ManagedObject, number: Int, key: Int64) {
        assert(object.objectID.primaryKey == key && object.objectID.mapping.number == number, "\(object.objectID) registered as Z_ENT \(number) p\(key)")
        if (count + 1) * 2 > capacity { grow(to: Swift.max(16, capacity < ObjectRegistry.quadruplingBelow ? capacity * 4 : capacity * 2)) }
        guard let buckets else { return }
        var i = bucket(number, key)
        while !buckets.isFree(i) {
            if buckets.key(i) == key, buckets.number(i) == number {
                // The replaced object is let go of after the table has changed.
                if !buckets.holds(object, at: i) { _ = buckets.replace(at: i, with: object) }
                return
            }
            i = (i &+ 1) & mask
        }
        buckets.store(object, key: key, number: number, at: i)
        count += 1
    }

    /// Registers an object under its (permanent) ID.
    func insert(_ object: ManagedObject, for id: ObjectID) {
        guard let key = id.primaryKey else { return }
        insert(object, number: id.mapping.number, key: key)
    }

    /// Removes and returns the object with this ID.
    ///
    /// The object is handed back rather than released here, so that its deinitialization
    /// (a subclass's `deinit` may do anything) never runs while the table is being changed.
    @discardableResult
    func removeValue(forKey id: ObjectID) -> ManagedObject? {
        guard let key = id.primaryKey, let i = find(id.mapping.number, key), buckets?.object(i)?.objectID == id else { return nil }
        return remove(at: i)
    }

    /// Removes the object of entity `number` with key `key` if nothing but this table holds
    /// it and it has no unsaved changes (Core Data keeps such objects only weakly). The
    /// object is handed back, for the caller to let go of after the call.
    func removeIfUnreferenced(number: Int, key: Int64) -> ManagedObject? {
        guard let i = find(number, key), let object = buckets?.takeIfUniquelyHeld(at: i, where: { !$0.hasChanges }) else { return nil }
        closeHole(at: i)
        return object
    }

    /// Empties the bucket at `i`, shifting later members of its run back (no tombstones),
    /// and hands back the table's reference to its object.
    private func remove(at position: Int) -> ManagedObject? {
        guard let buckets else { return nil }
        let removed = buckets.take(at: position)
        closeHole(at: position)
        return removed
    }

    /// Shifts the members of the run after the bucket just emptied at `position` back, so
    /// that every member stays reachable from its home bucket.
    private func closeHole(at position: Int) {
        guard let buckets else { return }
        count -= 1
        var hole = position
        var i = (position &+ 1) & mask
        while !buckets.isFree(i) {
            let home = bucket(buckets.number(i), buckets.key(i))
            // The entry may move into the hole if its home is not within (hole, i].
            let distanceFromHome = (i &- home) & mask
            let distanceFromHole = (i &- hole) & mask
            if distanceFromHome >= distanceFromHole {
                buckets.move(from: i, to: hole)
                hole = i
            }
            i = (i &+ 1) & mask
        }
    }

    private func grow(to newCapacity: Int) {
        let old = buckets
        let oldCapacity = capacity
        let grown = RetainedBuckets<ManagedObject>(capacity: newCapacity)
        buckets = grown
        capacity = newCapacity
        mask = newCapacity - 1
        shift = 64 - newCapacity.trailingZeroBitCount
        guard let old else { return }
        // Entries move as they are: the references move with them.
        for i in 0..<oldCapacity where !old.isFree(i) {
            var j = bucket(old.number(i), old.key(i))
            while !grown.isFree(j) { j = (j &+ 1) & mask }
            grown.move(i, of: old, to: j)
        }
        old.deallocate()
    }

    /// Calls `body` with every registered object (in no particular order), without
    /// copying them into an array first. `body` must not add or remove objects.
    func forEach(_ body: (ManagedObject) -> Void) {
        guard let buckets else { return }
        let before = count
        for i in 0..<capacity {
            // The table's own reference keeps the object alive through the call.
            buckets.withObject(i, body)
        }
        assert(count == before, "objects were added or removed while the registry was walked")
    }

    /// Makes room for `capacity` objects without growing again.
    func reserveCapacity(_ wanted: Int) {
        var size = Swift.max(16, capacity)
        while wanted * 2 > size { size *= 2 }
        if size > capacity { grow(to: size) }
    }

    /// Every registered object (in no particular order).
    var values: [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        forEach { objects.append($0) }
        return objects
    }
}
