/// The library's storage that Swift's run-time safety checks do not cover, in one place
/// (the other place is ``ManagedObject``'s own stored properties): why each part is here,
/// and what keeps it sound, is said with it. See ARCHITECTURE.md, "Unsafe code".
///
/// - ``UncheckedCell``: a value whose accesses skip Swift's run-time exclusivity check, for
///   state the hot paths touch once per row or per object (a context's pending inserts, a
///   fetch's entity of the last row, a store's per-row save statements). Debug builds check
///   the same rule themselves.
/// - ``RetainedBuckets``: the identity map's table, a plain buffer whose entries hold one
///   manually counted reference each, so that making, growing and clearing the table is
///   zeroing and copying bytes.

/// A value on the heap, read and written without Swift's run-time exclusivity check.
///
/// Swift checks every access to a class's stored property at run time (`swift_beginAccess`)
/// unless it can prove no other access overlaps. On the paths that read a row or insert an
/// object those checks cost a measurable share (a context's pending-insert list is touched
/// for every object inserted; without the unchecked properties, inserting 17,000 objects
/// ran 28% more instructions). A cell is held in a `let` (which is never checked), and its
/// one property is unchecked.
///
/// Sound because every owner touches its cells from one thread, and never through two
/// overlapping accesses (no access to a cell is held across a call that may reach the same
/// cell). Debug builds assert that: an access that begins while a modification of the same
/// cell is in progress fails.
///
/// ```swift
/// let pending = UncheckedCell([ManagedObject]())
/// pending.value.append(object)
/// ```
final class UncheckedCell<Value> {
    @exclusivity(unchecked) private var stored: Value
    #if DEBUG
    /// Whether a modification is in progress (debug builds only).
    @exclusivity(unchecked) private var modifying = false
    #endif

    init(_ value: Value) {
        stored = value
    }

    /// The value.
    var value: Value {
        @inline(__always)
        get {
            #if DEBUG
            assert(!modifying, "overlapping access to an unchecked cell")
            #endif
            return stored
        }
        @inline(__always)
        _modify {
            #if DEBUG
            assert(!modifying, "overlapping access to an unchecked cell")
            modifying = true
            defer { modifying = false }
            #endif
            yield &stored
        }
    }
}

/// A table of buckets, each free or holding a key, an entity number and one reference it
/// owns (retained when stored, released when cleared): the identity map's storage (see
/// ``ObjectRegistry``, which does the hashing and probing).
///
/// Why not an array of entries with strong references: the entries would not be trivial,
/// and making, moving and destroying each bucket costs a value-witness call, about 450
/// instructions per object in a fetch that grows the table from 16 to 4,096 buckets. Here
/// the buffer is plain memory: a new table is zeroed, growing copies bytes.
///
/// Sound because a bucket's reference is counted exactly once: ``store(_:key:number:at:)``
/// retains, ``take(at:)`` hands the count to the caller, ``move(from:to:)`` moves it, and
/// ``releaseAll()`` releases every count left. Debug builds check that a bucket is free
/// before it is stored into or moved onto, and holds something before it is taken.
struct RetainedBuckets<Object: AnyObject> {
    private struct Entry {
        var key: Int64
        var number: Int
        /// nil marks a free bucket; otherwise one reference the table owns.
        var object: Unmanaged<Object>?
    }

    private let entries: UnsafeMutablePointer<Entry>
    /// The number of buckets.
    let capacity: Int

    /// `capacity` free buckets.
    init(capacity: Int) {
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(key: 0, number: 0, object: nil), count: capacity)
        self.capacity = capacity
    }

    /// Frees the buffer; every reference must have been taken or released first.
    func deallocate() {
        entries.deallocate()
    }

    /// Releases every reference the table holds and frees every bucket.
    func releaseAll() {
        for i in 0..<capacity {
            entries[i].object?.release()
            entries[i].object = nil
        }
    }

    @inline(__always)
    func isFree(_ i: Int) -> Bool { entries[i].object == nil }

    @inline(__always)
    func key(_ i: Int) -> Int64 { entries[i].key }

    @inline(__always)
    func number(_ i: Int) -> Int { entries[i].number }

    /// The object in bucket `i`, if any (a new reference for the caller).
    @inline(__always)
    func object(_ i: Int) -> Object? { entries[i].object?.takeUnretainedValue() }

    /// Whether bucket `i` holds exactly `object`.
    @inline(__always)
    func holds(_ object: Object, at i: Int) -> Bool {
        entries[i].object?.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
    }

    /// Stores `object` (retained) in free bucket `i`.
    @inline(__always)
    func store(_ object: Object, key: Int64, number: Int, at i: Int) {
        assert(isFree(i), "storing into a bucket in use")
        entries[i] = Entry(key: key, number: number, object: .passRetained(object))
    }

    /// Puts `object` (retained) in bucket `i` in place of the object there, and hands that
    /// one's reference to the caller.
    @inline(__always)
    func replace(at i: Int, with object: Object) -> Object? {
        let old = entries[i].object?.takeRetainedValue()
        entries[i].object = .passRetained(object)
        return old
    }

    /// Empties bucket `i` and hands its reference to the caller.
    @inline(__always)
    func take(at i: Int) -> Object {
        guard let object = entries[i].object else { preconditionFailure("taking from a free bucket") }
        entries[i].object = nil
        return object.takeRetainedValue()
    }

    /// Empties bucket `i` if nothing but the table holds its object and `releasable` says
    /// yes, handing the reference to the caller; otherwise leaves it as it is.
    func takeIfUniquelyHeld(at i: Int, where releasable: (Object) -> Bool) -> Object? {
        guard let entry = entries[i].object else { return nil }
        // The table's reference, taken out to ask whether it is the only one.
        var object = entry.takeRetainedValue()
        guard isKnownUniquelyReferenced(&object), releasable(object) else {
            _ = entry.retain()
            return nil
        }
        entries[i].object = nil
        return object
    }

    /// Moves bucket `source`'s entry, with its reference, into free bucket `target`.
    @inline(__always)
    func move(from source: Int, to target: Int) {
        assert(isFree(target), "moving onto a bucket in use")
        entries[target] = entries[source]
        entries[source].object = nil
    }

    /// Moves bucket `source` of `other` into free bucket `target` of this table (growing).
    @inline(__always)
    func move(_ source: Int, of other: RetainedBuckets, to target: Int) {
        assert(isFree(target), "moving onto a bucket in use")
        entries[target] = Entry(key: other.entries[source].key, number: other.entries[source].number, object: other.entries[source].object)
        other.entries[source].object = nil
    }

    /// Calls `body` with the object in bucket `i`, lent without a retain (the table's own
    /// reference keeps it alive through the call).
    @inline(__always)
    func withObject(_ i: Int, _ body: (Object) -> Void) {
        entries[i].object?._withUnsafeGuaranteedRef(body)
    }
}
