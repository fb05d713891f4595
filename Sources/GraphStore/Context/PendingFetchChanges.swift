/// The context's unsaved changes that bear on one fetch (Core Data's `includesPendingChanges`):
///
/// - inserted objects of the fetched entities that match are added;
/// - deleted objects are left out;
/// - changed (updated, unsaved) objects are judged in memory by their current values, not
///   by their stored rows. With sort keys they are merged in by their current values;
///   without, each keeps its stored position if it still matches, and one that matches only
///   now comes after the stored results.
///
/// A change to a *related* object (a category renamed) does not make its books count as
/// changed: their stored rows decide until the change is saved, as in Core Data.
struct PendingFetchChanges {
    /// Inserted and changed objects that match, in result order (changed ones only with sort keys).
    var matches: [FetchCandidate] = []
    /// Changed objects that match now, kept aside when there are no sort keys.
    var changedMatches: [FetchCandidate] = []
    /// Changed objects whose stored rows must not decide.
    var changed: Set<ObjectID> = []
    /// Deleted objects, whose rows are skipped.
    var deleted: Set<ObjectID> = []

    /// Whether nothing unsaved touches the fetched entities.
    var isEmpty: Bool { matches.isEmpty && changedMatches.isEmpty && changed.isEmpty && deleted.isEmpty }

    /// How many stored rows may be skipped, so a SQL LIMIT can make room for them.
    var skippable: Int { changed.count + deleted.count }

    init() {}

    init(context: ManagedObjectContext, request: FetchRequest<ManagedObject>, query: FetchQuery) throws {
        guard request.includesPendingChanges else { return }
        let numbers = Set(query.family.map(\.number))
        let sorted = !query.sorts.isEmpty
        for object in context.deleted.values where numbers.contains(object.mapping.number) { deleted.insert(object.objectID) }
        for object in context.updated.values where numbers.contains(object.mapping.number) {
            changed.insert(object.objectID)
            guard try request.predicate?.matches(object) ?? true else { continue }
            let candidate = FetchCandidate(id: object.objectID, object: object, sortValues: try object.sortValues(for: query.sorts))
            if sorted { matches.append(candidate) } else { changedMatches.append(candidate) }
        }
        for (index, object) in context.inserted.values.enumerated() where numbers.contains(object.mapping.number) {
            guard try request.predicate?.matches(object) ?? true else { continue }
            matches.append(FetchCandidate(
                id: object.objectID, object: object, sortValues: try object.sortValues(for: query.sorts), insertionIndex: index))
        }
        if context.parent != nil { try addChanges(ofParentsOf: context, request: request, query: query, numbers: numbers) }
        if sorted { matches.sort { $0.precedes($1, in: query.sorts) } }
    }
}
