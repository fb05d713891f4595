/// The version (`Z_OPT`) a context read of each stored object it let go of, so that a save
/// of such an object, made again later from a newer row, still checks the version first read.
///
/// Why: a context keeps the version on every object it holds, and a save's
/// `UPDATE … WHERE Z_OPT = ?` checks it. ``ManagedObjectContext/enumerate(_:_:)`` lets go of
/// each object as it goes (the REPL's `fetch` streams that way); without this record, a later
/// change to such an object read its row afresh, at whatever version someone else had saved
/// meanwhile, and the save overwrote their change without a conflict.
///
/// An entry is written each time an object is let go of, with the version the object carries
/// then, and read only when the object is made again: while the context holds an object, the
/// object's own version is the one checked (it is never filled from a row again), so an older
/// entry for it is never read. ``ManagedObjectContext/reset()`` forgets them all.
///
/// Compact: per entity, runs of consecutive keys read at one version (an enumeration in key
/// order of rows at version 1, the usual case, is a single run however many rows it reads),
/// and a map from key to version for keys that come out of order. No object or row is kept.
/// A context on a read-only store can never save, so it records nothing at all.
struct SeenVersions {
    private var byEntity: [Int: EntityVersions] = [:]

    /// Whether no version is kept (checked per row a fetch makes an object of).
    var isEmpty: Bool { byEntity.isEmpty }

    /// Runs plus out-of-order entries kept: what the record costs (for tests).
    var storedEntries: Int { byEntity.values.reduce(0) { $0 + $1.runs.count + $1.outOfOrder.count } }

    /// Keeps the version read of the object of entity `number` with key `key`.
    mutating func record(_ version: Int64, number: Int, key: Int64) {
        byEntity[number, default: EntityVersions()].record(version, key: key)
    }

    /// The version kept for an object, if any.
    func version(number: Int, key: Int64) -> Int64? {
        byEntity[number]?.version(key: key)
    }

    /// Forgets every version.
    mutating func removeAll() {
        byEntity = [:]
    }

    /// One entity's versions.
    private struct EntityVersions {
        /// Keys `first...last` read at `version`, in increasing key order, not overlapping.
        struct Run {
            var first: Int64
            var last: Int64
            var version: Int64
        }

        var runs: [Run] = []
        /// Keys recorded out of order (at or below the last run's end); they win over runs.
        var outOfOrder: [Int64: Int64] = [:]

        mutating func record(_ version: Int64, key: Int64) {
            if let last = runs.last, key > last.last {
                if key == last.last + 1, version == last.version {
                    runs[runs.count - 1].last = key
                } else {
                    runs.append(Run(first: key, last: key, version: version))
                }
                return
            }
            if runs.isEmpty {
                runs.append(Run(first: key, last: key, version: version))
            } else if run(containing: key)?.version == version {
                outOfOrder.removeValue(forKey: key)
            } else {
                outOfOrder[key] = version
            }
        }

        func version(key: Int64) -> Int64? {
            (outOfOrder.isEmpty ? nil : outOfOrder[key]) ?? run(containing: key)?.version
        }

        /// The run holding `key` (binary search: runs are in key order).
        private func run(containing key: Int64) -> Run? {
            var low = 0
            var high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if runs[middle].last < key { low = middle + 1 } else { high = middle }
            }
            return low < runs.count && runs[low].first <= key ? runs[low] : nil
        }
    }
}
