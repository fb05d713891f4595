import Foundation

/// The changes between two states of a fetched-results controller's results, in the order
/// and with the index paths a table view applies them (Core Data's rules):
///
/// - sections: deletes at their old index, inserts at their new one;
/// - objects: deletes at their old path, inserts at their new path; an object whose
///   values changed (`changed`) is a move when its section or its order among the objects
///   present before and after changed, else an update at its old path. An object that
///   only shifts because others came or went is not reported.
struct FetchedResultsDiff<Object: ManagedObject> {
    struct ObjectChange {
        let object: Object
        let type: FetchedResultsChangeType
        let old: IndexPath?
        let new: IndexPath?
    }

    private(set) var sectionChanges: [(index: Int, type: FetchedResultsChangeType)] = []
    private(set) var objectChanges: [ObjectChange] = []

    var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    init(
        oldSections: [String], newSections: [String], old: [Object], oldPaths: [ObjectIdentifier: IndexPath], new: [Object],
        newPaths: [ObjectIdentifier: IndexPath], changed: (Object) -> Bool
    ) {
        let oldNames = Set(oldSections)
        let newNames = Set(newSections)
        for (index, name) in oldSections.enumerated() where !newNames.contains(name) { sectionChanges.append((index, .delete)) }
        for (index, name) in newSections.enumerated() where !oldNames.contains(name) { sectionChanges.append((index, .insert)) }

        let oldRanks = Self.ranksAmongStaying(old, paths: oldPaths, staying: newPaths)
        let newRanks = Self.ranksAmongStaying(new, paths: newPaths, staying: oldPaths)
        for object in old where newPaths[ObjectIdentifier(object)] == nil {
            objectChanges.append(ObjectChange(object: object, type: .delete, old: oldPaths[ObjectIdentifier(object)], new: nil))
        }
        for object in new {
            let key = ObjectIdentifier(object)
            guard let newPath = newPaths[key] else { continue }
            guard let oldPath = oldPaths[key] else {
                objectChanges.append(ObjectChange(object: object, type: .insert, old: nil, new: newPath))
                continue
            }
            guard changed(object) else { continue }
            let moved = oldSections[oldPath.section] != newSections[newPath.section] || oldRanks[key] != newRanks[key]
            objectChanges.append(ObjectChange(object: object, type: moved ? .move : .update, old: oldPath, new: moved ? newPath : nil))
        }
    }

    /// Each object's place within its section, counting only objects present on both sides.
    private static func ranksAmongStaying(_ objects: [Object], paths: [ObjectIdentifier: IndexPath], staying: [ObjectIdentifier: IndexPath]) -> [ObjectIdentifier: Int] {
        var ranks: [ObjectIdentifier: Int] = [:]
        var countInSection: [Int: Int] = [:]
        for object in objects {
            let key = ObjectIdentifier(object)
            guard staying[key] != nil, let section = paths[key]?.section else { continue }
            ranks[key] = countInSection[section, default: 0]
            countInSection[section, default: 0] += 1
        }
        return ranks
    }
}
