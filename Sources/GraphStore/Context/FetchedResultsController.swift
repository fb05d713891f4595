import Foundation

/// Keeps the results of a fetch request in sections and tells a delegate how they change
/// as the context's objects change: Core Data's `NSFetchedResultsController`, the data
/// source of a list.
///
/// ```swift
/// var request = FetchRequest<Book>()
/// request.sortKeys = [SortKey("category.name"), SortKey("title")]
/// let books = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "category.name")
/// books.delegate = dataSource
/// try books.performFetch()
/// books.sections?[0].name                          // "Fiction"
/// books.object(at: IndexPath(item: 0, section: 0))
/// ```
///
/// It follows the context: each objects-did-change (``ManagedObjectContext/processPendingChanges()``,
/// a save, a merge of another context's save, an undo) that names an object of the
/// request's entity makes it fetch again (unsaved changes included) and report the
/// difference: `controllerWillChangeContent`, then section deletes and inserts, then object
/// deletes, inserts, moves and updates with their index paths (old ones for deletes, moves
/// and updates, new ones for inserts and moves), then `controllerDidChangeContent` and the
/// new snapshot. Fetching again rather than patching the sections in place costs one query
/// per change event; it keeps the results exactly what the request fetches.
///
/// With a section key path, the request's first sort key must order by it (as Core Data
/// requires): a section name met again after another is ``FetchedResultsError/sectionsOutOfOrder(name:index:)``.
/// Core Data's `cacheName` has no counterpart: nothing is cached between runs.
open class FetchedResultsController<Result: ManagedObject> {
    /// The request whose results are kept; a change takes effect at the next
    /// ``performFetch()``.
    public var fetchRequest: FetchRequest<Result>
    /// The context fetched from and followed.
    public let managedObjectContext: ManagedObjectContext
    /// The key path whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: String?
    /// Told of every change to the results (held weakly).
    public weak var delegate: (any FetchedResultsControllerDelegate)?
    /// The results, section after section; nil before ``performFetch()``.
    public private(set) var fetchedObjects: [Result]?
    /// The sections; nil before ``performFetch()``.
    public private(set) var sections: [FetchedResultsSectionInfo]?
    /// Where each object is, by identity (IDs change when objects are first saved).
    private var paths: [ObjectIdentifier: IndexPath] = [:]
    private var listener: Int?

    /// A controller for `fetchRequest`'s results in `managedObjectContext`; nothing is
    /// fetched before ``performFetch()``.
    public init(fetchRequest: FetchRequest<Result>, managedObjectContext: ManagedObjectContext, sectionNameKeyPath: String? = nil) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        self.sectionNameKeyPath = sectionNameKeyPath
    }

    deinit {
        if let listener { managedObjectContext.removeEventListener(listener) }
    }

    /// Fetches the results and starts following the context's changes.
    public func performFetch() throws {
        let fetched = try fetch()
        fetchedObjects = fetched.objects
        sections = fetched.sections
        paths = fetched.paths
        if listener == nil {
            listener = managedObjectContext.addEventListener { [weak self] event in self?.contextChanged(event) }
        }
    }

    /// The object at an index path (``FetchedResultsError/noObject(section:item:)`` where
    /// there is none: Core Data raises an exception there).
    public func object(at indexPath: IndexPath) throws -> Result {
        // Any index path may come in (a negative index, one of another length): checked, never trapped on.
        guard indexPath.count == 2 else { throw FetchedResultsError.noObject(section: indexPath.first ?? -1, item: indexPath.count > 1 ? indexPath[1] : -1) }
        guard let sections, let objects = fetchedObjects, sections.indices.contains(indexPath.section),
            (0..<sections[indexPath.section].numberOfObjects).contains(indexPath.item)
        else { throw FetchedResultsError.noObject(section: indexPath.section, item: indexPath.item) }
        let offset = sections.prefix(indexPath.section).reduce(0) { $0 + $1.numberOfObjects }
        return objects[offset + indexPath.item]
    }

    /// Where an object is in the results, if it is there.
    public func indexPath(forObject object: Result) -> IndexPath? {
        paths[ObjectIdentifier(object)]
    }

    /// The results as sections of object IDs, for a diffable data source.
    public var snapshot: FetchedResultsSnapshot {
        FetchedResultsSnapshot(sections: (sections ?? []).map { .init(name: $0.name, objectIDs: $0.objectIDs) })
    }

    /// Every section's index title, for a table's index.
    public var sectionIndexTitles: [String] {
        (sections ?? []).compactMap(\.indexTitle)
    }

    /// The index title of a section: its name's first letter, capitalized (override to
    /// choose another, as with Core Data's).
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }

    // MARK: - Following the context

    /// The error of the last fetch made to follow a change, if it failed (the results are
    /// then those before the change); nil once one succeeds.
    public private(set) var followError: (any Error)?

    private func contextChanged(_ event: ContextEvent) {
        guard let before = fetchedObjects else { return }
        switch event {
        case .willSave:
            return
        case .didSave:
            // Saved objects keep their places but get permanent IDs: the snapshot changes.
            let old = sections
            var offset = 0
            sections = sections?.map { section in
                var section = section
                section.objectIDs = before[offset..<offset + section.numberOfObjects].map(\.objectID)
                offset += section.numberOfObjects
                return section
            }
            if old != sections { delegate?.controller(self, didChangeContentWith: snapshot) }
        case .objectsDidChange(let changes):
            guard concerns(changes) else { return }
            do {
                try report(changes, before: before)
                followError = nil
            } catch {
                followError = error
            }
        }
    }

    /// The entities whose objects the request fetches.
    private var entityNames: Set<String> {
        let store = managedObjectContext.store
        guard fetchRequest.includesSubentities, let mapping = try? store.mapping(for: fetchRequest.entityName) else { return [fetchRequest.entityName] }
        return Set(store.family(of: mapping).map(\.name))
    }

    /// Whether a change names an object of the request's entity (or a sub-entity).
    private func concerns(_ changes: ObjectChanges) -> Bool {
        if changes.invalidatedAll { return true }
        let entityNames = entityNames
        for set in [changes.inserted, changes.updated, changes.deleted, changes.refreshed] {
            if set.contains(where: { entityNames.contains($0.entityName) }) { return true }
        }
        return false
    }

    private func report(_ changes: ObjectChanges, before: [Result]) throws {
        let oldSections = sections ?? []
        let oldPaths = paths
        let fetched = try fetch()
        let changedIDs = changes.updated.union(changes.refreshed)
        let diff = FetchedResultsDiff(
            oldSections: oldSections.map(\.name), newSections: fetched.sections.map(\.name), old: before, oldPaths: oldPaths,
            new: fetched.objects, newPaths: fetched.paths, changed: { changedIDs.contains($0.objectID) })
        fetchedObjects = fetched.objects
        sections = fetched.sections
        paths = fetched.paths
        guard !diff.isEmpty, let delegate else { return }
        delegate.controllerWillChangeContent(self)
        for (index, type) in diff.sectionChanges {
            let info = type == .delete ? oldSections[index] : fetched.sections[index]
            delegate.controller(self, didChange: info, atSectionIndex: index, for: type)
        }
        for change in diff.objectChanges {
            delegate.controller(self, didChange: change.object, at: change.old, for: change.type, newIndexPath: change.new)
        }
        delegate.controllerDidChangeContent(self)
        delegate.controller(self, didChangeContentWith: snapshot)
    }

    // MARK: - Fetching

    private struct Fetched {
        var objects: [Result] = []
        var sections: [FetchedResultsSectionInfo] = []
        var paths: [ObjectIdentifier: IndexPath] = [:]
    }

    private func fetch() throws -> Fetched {
        if let typed = Result.self as? any EntityObject.Type { register(typed) }
        var fetched = Fetched()
        var seen: Set<String> = []
        for object in try managedObjectContext.fetch(fetchRequest.untyped) {
            guard let object = object as? Result else { throw FetchedResultsError.wrongClass(object.objectID.description, expected: "\(Result.self)") }
            let name = try sectionNameKeyPath.map { try Self.sectionName(object.predicateValue(forKeyPath: $0)) } ?? ""
            if fetched.sections.last?.name != name {
                guard seen.insert(name).inserted else { throw FetchedResultsError.sectionsOutOfOrder(name: name, index: fetched.objects.count) }
                fetched.sections.append(FetchedResultsSectionInfo(name: name, indexTitle: sectionIndexTitle(forSectionName: name), numberOfObjects: 0, objectIDs: []))
            }
            let section = fetched.sections.count - 1
            fetched.paths[ObjectIdentifier(object)] = IndexPath(item: fetched.sections[section].numberOfObjects, section: section)
            fetched.sections[section].numberOfObjects += 1
            fetched.sections[section].objectIDs.append(object.objectID)
            fetched.objects.append(object)
        }
        return fetched
    }

    private func register<T: EntityObject>(_ type: T.Type) {
        managedObjectContext.register(type)
    }

    /// A section key path's value as a section name: text as it is, numbers and dates as
    /// they print, none as "".
    static func sectionName(_ value: PredicateValue) -> String {
        switch value {
        case .null: ""
        case .attribute(.string(let text)): text
        case .attribute(let value): value.description
        case .object(let object): (object.objectIdentity?.base as? ObjectID)?.description ?? ""
        case .array(let values), .set(let values): values.map(sectionName).joined(separator: ", ")
        }
    }
}

/// What a ``FetchedResultsController`` cannot do.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The section key path's values do not come in runs: the request's first sort key
    /// does not order by it.
    case sectionsOutOfOrder(name: String, index: Int)
    /// A fetched object is not of the controller's class.
    case wrongClass(String, expected: String)
    /// ``FetchedResultsController/object(at:)`` was asked for a place with no object.
    case noObject(section: Int, item: Int)

    public var description: String {
        switch self {
        case .sectionsOutOfOrder(let name, let index):
            "the section \"\(name)\" comes again at object \(index): sort the request by the section key path first, as Core Data requires"
        case .wrongClass(let id, let expected):
            "\(id) is not a \(expected): register the class with the context"
        case .noObject(let section, let item):
            "no object at item \(item) of section \(section) of the fetched results"
        }
    }
}
