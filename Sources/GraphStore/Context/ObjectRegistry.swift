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
/// The table is a class over a plain buffer whose entries hold their objects unmanaged (the
/// table owns one reference to each): the buffer is trivially typed, so making it is zeroing
/// memory and growing it is copying bytes. An array of entries with strong references cost
/// a value-witness call per bucket to make, move and destroy, about 450 instructions per
/// object in a fetch that grows the table from 16 to 4,096 buckets.
final class ObjectRegistry {
    private struct Entry {
        var key: Int64
        var number: Int
        /// nil marks a free bucket; otherwise one reference the table owns.
        var object: Unmanaged<ManagedObject>?
    }

    private var entries: UnsafeMutablePointer<Entry>?
    /// The number of buckets: zero, or a power of two of at least 16.
    private var capacity = 0
    /// `capacity - 1`, or -1 while nothing was allocated.
    private var mask = -1
    private var shift = 64
    /// The number of registered objects.
    private(set) var count = 0

    init() {}

    deinit {
        removeAll()
    }

    /// Lets go of every object. The table is empty before the first is released, so that
    /// a `deinit` run by the release finds it so.
    func removeAll() {
        guard let old = entries else { return }
        let oldCapacity = capacity
        entries = nil
        (capacity, mask, shift, count) = (0, -1, 64, 0)
        for i in 0..<oldCapacity { old[i].object?.release() }
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
        guard count > 0, let entries else { return nil }
        var i = bucket(number, key)
        while true {
            guard entries[i].object != nil else { return nil }
            if entries[i].key == key, entries[i].number == number { return i }
            i = (i &+ 1) & mask
        }
    }

    /// The registered object of entity `number` with key `key`.
    @inline(__always)
    func object(number: Int, key: Int64) -> ManagedObject? {
        find(number, key).flatMap { entries?[$0].object?.takeUnretainedValue() }
    }

    /// The registered object with this ID.
    subscript(id: ObjectID) -> ManagedObject? {
        guard let key = id.primaryKey, let object = object(number: id.mapping.number, key: key), object.objectID == id else { return nil }
        return object
    }

    /// Registers an object under its entity number and key (replacing any other).
    func insert(_ object: ManagedObject, number: Int, key: Int64) {
        if (count + 1) * 2 > capacity { grow(to: Swift.max(16, capacity * 2)) }
        guard let entries else { return }
        var i = bucket(number, key)
        while let existing = entries[i].object {
            if entries[i].key == key, entries[i].number == number {
                if existing.toOpaque() != Unmanaged.passUnretained(object).toOpaque() {
                    entries[i].object = .passRetained(object)
                    existing.release()
                }
                return
            }
            i = (i &+ 1) & mask
        }
        entries[i] = Entry(key: key, number: number, object: .passRetained(object))
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
        guard let key = id.primaryKey, let i = find(id.mapping.number, key), let object = entries?[i].object,
            object.takeUnretainedValue().objectID == id
        else { return nil }
        return remove(at: i)
    }

    /// Removes the object of entity `number` with key `key` if nothing but this table holds
    /// it and it has no unsaved changes (Core Data keeps such objects only weakly). The
    /// object is handed back, for the caller to let go of after the call.
    func removeIfUnreferenced(number: Int, key: Int64) -> ManagedObject? {
        guard let i = find(number, key), let entries, let entry = entries[i].object else { return nil }
        // The table's reference, taken out to ask whether it is the only one.
        var object = entry.takeRetainedValue()
        guard isKnownUniquelyReferenced(&object), !object.hasChanges else {
            _ = entry.retain()
            return nil
        }
        _ = remove(at: i, releasing: false)
        return object
    }

    /// Empties the bucket at `i`, shifting later members of its run back (no tombstones),
    /// and hands back the table's reference to its object (unless `releasing` is false:
    /// the caller took it already).
    private func remove(at position: Int, releasing: Bool = true) -> ManagedObject? {
        guard let entries else { return nil }
        let removed = releasing ? entries[position].object?.takeRetainedValue() : nil
        entries[position].object = nil
        count -= 1
        var hole = position
        var i = (position &+ 1) & mask
        while entries[i].object != nil {
            let home = bucket(entries[i].number, entries[i].key)
            // The entry may move into the hole if its home is not within (hole, i].
            let distanceFromHome = (i &- home) & mask
            let distanceFromHole = (i &- hole) & mask
            if distanceFromHome >= distanceFromHole {
                entries[hole] = entries[i]
                entries[i].object = nil
                hole = i
            }
            i = (i &+ 1) & mask
        }
        return removed
    }

    private func grow(to newCapacity: Int) {
        let old = entries
        let oldCapacity = capacity
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        grown.initialize(repeating: Entry(key: 0, number: 0, object: nil), count: newCapacity)
        entries = grown
        capacity = newCapacity
        mask = newCapacity - 1
        shift = 64 - newCapacity.trailingZeroBitCount
        guard let old else { return }
        // Entries are copied as they are: the references move with them.
        for i in 0..<oldCapacity {
            guard old[i].object != nil else { continue }
            var j = bucket(old[i].number, old[i].key)
            while grown[j].object != nil { j = (j &+ 1) & mask }
            grown[j] = old[i]
        }
        old.deallocate()
    }

    /// Calls `body` with every registered object (in no particular order), without
    /// copying them into an array first. `body` must not add or remove objects.
    func forEach(_ body: (ManagedObject) -> Void) {
        guard let entries else { return }
        for i in 0..<capacity {
            // The table's own reference keeps the object alive through the call.
            entries[i].object?._withUnsafeGuaranteedRef(body)
        }
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
