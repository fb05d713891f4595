/// The version (`Z_OPT`) a context read of each stored object it let go of, so that a save
/// of such an object, made again later from a newer row, still checks the version first read.
///
/// Why: a context keeps the version on every object it holds, and a save's
/// `UPDATE … WHERE Z_OPT = ?` checks it. ``ManagedObjectContext/enumerate(_:_:)`` lets go of
/// each object as it goes (the REPL's `fetch` streams that way); without this record, a later
/// change to such an object read its row afresh, at whatever version someone else had saved
/// meanwhile, and the save overwrote their change without a conflict.
///
/// An entry lives from the moment the object is let go of until the object is made again
/// (the version moves back onto it), reloaded, or the context is reset. It is a flat map per
/// entity from key to version (no object or row kept). A context on a read-only store can
/// never save, so it records nothing: enumerating a million objects there keeps memory flat.
struct SeenVersions {
    private var byEntity: [Int: [Int64: Int64]] = [:]
    /// The number of versions kept.
    private(set) var count = 0

    /// Whether no version is kept (checked per row a fetch makes an object of).
    var isEmpty: Bool { count == 0 }

    /// Keeps the version read of the object of entity `number` with key `key`.
    mutating func record(_ version: Int64, number: Int, key: Int64) {
        if byEntity[number, default: [:]].updateValue(version, forKey: key) == nil { count += 1 }
    }

    /// Hands back (and forgets) the version kept for an object, if any.
    mutating func take(number: Int, key: Int64) -> Int64? {
        guard count > 0, let version = byEntity[number]?.removeValue(forKey: key) else { return nil }
        count -= 1
        return version
    }

    /// Forgets every version.
    mutating func removeAll() {
        byEntity = [:]
        count = 0
    }
}
