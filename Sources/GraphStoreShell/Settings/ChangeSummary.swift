import GraphStore

/// How many objects a context has inserted, updated and deleted since its last save.
struct ChangeSummary: Equatable {
    var inserted = 0
    var updated = 0
    var deleted = 0

    init(_ context: ManagedObjectContext?) {
        guard let context, context.hasChanges else { return }
        inserted = context.insertedObjects.count
        updated = context.updatedObjects.count
        deleted = context.deletedObjects.count
    }

    var total: Int { inserted + updated + deleted }

    /// "3 unsaved changes (2 inserted, 1 deleted)".
    var sentence: String {
        let parts = [(inserted, "inserted"), (updated, "updated"), (deleted, "deleted")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let noun = total == 1 ? "change" : "changes"
        return "\(total) unsaved \(noun)" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
    }
}
