import Foundation
import Testing
@testable import GraphStore

/// The fetched-results controller against the change sequences a table view applies: each
/// test plays the reported changes on a copy of the old sections, as `UITableView`'s batch
/// updates do (deletes at old paths, then inserts at new ones; a move is both), and checks
/// that the table then shows exactly the controller's new sections.
@Suite struct FetchedResultsControllerTests {
    /// Books in two categories: Fiction (Dune, Emma), Poetry (Odes).
    private func seeded() throws -> (ManagedObjectContext, String) {
        let (context, path) = try ValidationFixtures.newContext(try Fixtures.bookStoreModel())
        for (name, titles) in [("Fiction", ["Dune", "Emma"]), ("Poetry", ["Odes"])] {
            let category = try context.insert("BookCategory")
            try category.set("name", name)
            for title in titles {
                let book = try context.insert("Book")
                try book.set("title", title)
                try book.set("price", 10.0)
                try book.setObject(category, forKey: "category")
            }
        }
        try context.save()
        return (context, path)
    }

    private func controller(_ context: ManagedObjectContext, _ table: TableView) throws -> FetchedResultsController<ManagedObject> {
        let request = FetchRequest(entityName: "Book", sortKeys: [SortKey("category.name"), SortKey("title")])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "category.name")
        controller.delegate = table
        try controller.performFetch()
        table.load(controller)
        return controller
    }

    private func category(_ context: ManagedObjectContext, _ name: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "BookCategory", format: "name == %@", name)).first)
    }

    private func book(_ context: ManagedObjectContext, _ title: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entityName: "Book", format: "title == %@", title)).first)
    }

    @Test func sectionsNamesAndIndexTitles() throws {
        let (context, _) = try seeded()
        let table = TableView()
        let books = try controller(context, table)
        #expect(books.sections?.map(\.name) == ["Fiction", "Poetry"])
        #expect(books.sectionIndexTitles == ["F", "P"])
        #expect(try books.object(at: IndexPath(item: 1, section: 0)).get("title", as: String.self) == "Emma")
        #expect(throws: FetchedResultsError.noObject(section: 2, item: 0)) { try books.object(at: IndexPath(item: 0, section: 2)) }
        #expect(throws: FetchedResultsError.noObject(section: -1, item: 0)) { try books.object(at: IndexPath(item: 0, section: -1)) }
        #expect(throws: FetchedResultsError.noObject(section: 0, item: -1)) { try books.object(at: IndexPath(item: -1, section: 0)) }
        #expect(throws: FetchedResultsError.noObject(section: 0, item: -1)) { try books.object(at: IndexPath(index: 0)) }
        #expect(books.indexPath(forObject: try book(context, "Odes")) == IndexPath(item: 0, section: 1))
        #expect(table.titles == [["Dune", "Emma"], ["Odes"]])
    }

    @Test func anInsertIntoANewSectionInsertsTheSectionAndTheRow() throws {
        let (context, _) = try seeded()
        let table = TableView()
        _ = try controller(context, table)
        let drama = try context.insert("BookCategory")
        try drama.set("name", "Drama")
        let hamlet = try context.insert("Book")
        try hamlet.set("title", "Hamlet")
        try hamlet.setObject(drama, forKey: "category")
        context.processPendingChanges()
        #expect(table.log == ["will", "section insert 0", "insert Hamlet → 0.0", "did"])
        #expect(table.titles == [["Hamlet"], ["Dune", "Emma"], ["Odes"]])
    }

    @Test func aSortKeyChangeIsAMove() throws {
        let (context, _) = try seeded()
        let table = TableView()
        _ = try controller(context, table)
        try book(context, "Dune").set("title", "Zadig")
        context.processPendingChanges()
        #expect(table.log == ["will", "move Zadig 0.0 → 0.1", "did"])
        #expect(table.titles == [["Emma", "Zadig"], ["Odes"]])
    }

    @Test func aChangeInPlaceIsAnUpdateAndAShiftIsNotReported() throws {
        let (context, _) = try seeded()
        let table = TableView()
        _ = try controller(context, table)
        try book(context, "Emma").set("price", 12.0)
        try context.insert("Book").setObject(try category(context, "Fiction"), forKey: "category")   // no title: sorts first
        context.processPendingChanges()
        #expect(table.log == ["will", "insert (untitled) → 0.0", "update Emma 0.1", "did"])
        #expect(table.titles == [["(untitled)", "Dune", "Emma"], ["Odes"]])
    }

    @Test func movingTheLastObjectOfASectionAwayDeletesTheSection() throws {
        let (context, _) = try seeded()
        let table = TableView()
        _ = try controller(context, table)
        try book(context, "Odes").setObject(try category(context, "Fiction"), forKey: "category")
        context.processPendingChanges()
        #expect(table.log == ["will", "section delete 1", "move Odes 1.0 → 0.2", "did"])
        #expect(table.titles == [["Dune", "Emma", "Odes"]])
    }

    @Test func deletingTheLastObjectOfASectionDeletesTheSection() throws {
        let (context, _) = try seeded()
        let table = TableView()
        _ = try controller(context, table)
        try context.delete(try book(context, "Odes"))
        try context.save()
        #expect(table.log == ["will", "section delete 1", "delete 1.0", "did"])
        #expect(table.titles == [["Dune", "Emma"]])
    }

    @Test func aSaveGivesTheSnapshotPermanentIDs() throws {
        let (context, _) = try seeded()
        let table = TableView()
        let books = try controller(context, table)
        let added = try context.insert("Book")
        try added.set("title", "Emma 2")
        try added.setObject(try category(context, "Fiction"), forKey: "category")
        context.processPendingChanges()
        #expect(table.snapshots.last?.sections[0].objectIDs.last?.isTemporary == true)
        try context.save()
        #expect(table.snapshots.last?.sections[0].objectIDs.last == added.objectID)
        #expect(table.snapshots.last == books.snapshot && !added.objectID.isTemporary)
    }

    /// Another context's save, merged, reaches the controller.
    @Test func anotherContextsMergedSaveIsReported() throws {
        let (context, path) = try seeded()
        let table = TableView()
        let books = try controller(context, table)
        let other = try ValidationFixtures.reopen(path, try Fixtures.bookStoreModel())
        var saved = ObjectChanges()
        other.didSaveChanges = { saved = $0 }
        let added = try other.insert("Book")
        try added.set("title", "Ulysses")
        try added.setObject(try other.fetch(FetchRequest(entityName: "BookCategory", format: "name == 'Poetry'")).first, forKey: "category")
        try other.save()
        try context.mergeChanges(saved)
        #expect(books.followError == nil, "\(books.followError.map { "\($0)" } ?? "")")
        #expect(table.log == ["will", "insert Ulysses → 1.1", "did"])
        #expect(table.titles == [["Dune", "Emma"], ["Odes", "Ulysses"]])
    }

    @Test func sectionsOutOfTheSortOrderAreRefusedByName() throws {
        let (context, _) = try seeded()
        let ars = try context.insert("Book")
        try ars.set("title", "Ars Poetica")
        try ars.setObject(try category(context, "Poetry"), forKey: "category")
        let request = FetchRequest(entityName: "Book", sortKeys: [SortKey("title")])      // Ars (Poetry), Dune, Emma (Fiction), Odes (Poetry)
        let books = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "category.name")
        #expect(throws: FetchedResultsError.sectionsOutOfOrder(name: "Poetry", index: 3)) { try books.performFetch() }
    }

    /// The generic data source of the seed `004_124efeb7eb6717aa.txt`
    /// (`BasicFetchedResultsDataSource`): its search changes the request's predicate and
    /// fetches again.
    @Test func theSeedsDataSourceRefetchesWithANewPredicate() throws {
        let (context, _) = try seeded()
        let table = TableView()
        let books = try controller(context, table)
        books.fetchRequest.predicate = try ObjectPredicate(format: "title BEGINSWITH %@", "E")
        try books.performFetch()
        table.load(books)
        #expect(table.titles == [["Emma"]])
    }
}

/// A table view as the tests see one: its rows, and the changes it was told, applied as
/// `UITableView` applies a batch of updates.
final class TableView: FetchedResultsControllerDelegate {
    private(set) var sections: [[ManagedObject]] = []
    private(set) var log: [String] = []
    private(set) var snapshots: [FetchedResultsSnapshot] = []
    private var batch = Batch()

    private struct Batch {
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        var deletedRows: [IndexPath] = []
        var insertedRows: [(IndexPath, ManagedObject)] = []
        var updatedRows: [(IndexPath, ManagedObject)] = []
    }

    var titles: [[String]] { sections.map { $0.map(Self.title) } }

    static func title(_ object: ManagedObject) -> String { ((try? object.get("title", as: String.self)) ?? nil) ?? "(untitled)" }

    /// The controller shown (kept, as a view controller keeps its data source's controller).
    private var shown: FetchedResultsController<ManagedObject>?

    func load(_ controller: FetchedResultsController<ManagedObject>) {
        shown = controller
        sections = (controller.sections ?? []).indices.map { section in
            (0..<(controller.sections?[section].numberOfObjects ?? 0)).compactMap { try? controller.object(at: IndexPath(item: $0, section: section)) }
        }
        log = []
    }

    func controllerWillChangeContent<R>(_ controller: FetchedResultsController<R>) {
        log.append("will")
        batch = Batch()
    }

    func controller<R>(_ controller: FetchedResultsController<R>, didChange sectionInfo: FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
        log.append("section \(type == .insert ? "insert" : "delete") \(sectionIndex)")
        if type == .insert { batch.insertedSections.append(sectionIndex) } else { batch.deletedSections.append(sectionIndex) }
    }

    func controller<R>(_ controller: FetchedResultsController<R>, didChange object: ManagedObject, at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let path = { (p: IndexPath?) in p.map { "\($0.section).\($0.item)" } ?? "?" }
        switch type {
        case .insert:
            log.append("insert \(Self.title(object)) → \(path(newIndexPath))")
            if let newIndexPath { batch.insertedRows.append((newIndexPath, object)) }
        case .delete:
            log.append("delete \(path(indexPath))")
            if let indexPath { batch.deletedRows.append(indexPath) }
        case .move:
            log.append("move \(Self.title(object)) \(path(indexPath)) → \(path(newIndexPath))")
            if let indexPath, let newIndexPath {
                batch.deletedRows.append(indexPath)
                batch.insertedRows.append((newIndexPath, object))
            }
        case .update:
            log.append("update \(Self.title(object)) \(path(indexPath))")
            if let indexPath { batch.updatedRows.append((indexPath, object)) }
        }
    }

    func controllerDidChangeContent<R>(_ controller: FetchedResultsController<R>) {
        log.append("did")
        // Updates name rows by their place before the batch.
        // A path outside the table is what UITableView rejects with an exception.
        func has(_ path: IndexPath) -> Bool { sections.indices.contains(path.section) && sections[path.section].indices.contains(path.item) }
        for (path, object) in batch.updatedRows where !has(path) || sections[path.section][path.item] !== object {
            Issue.record("the update of \(Self.title(object)) names the wrong row \(path)")
        }
        for path in batch.deletedRows.sorted(by: >) {
            guard has(path) else { Issue.record("a delete names no row: \(path)"); return }
            sections[path.section].remove(at: path.item)
        }
        for index in batch.deletedSections.sorted(by: >) {
            guard sections.indices.contains(index), sections[index].isEmpty else { Issue.record("section \(index) cannot be deleted"); return }
            sections.remove(at: index)
        }
        for index in batch.insertedSections.sorted() {
            guard index <= sections.count else { Issue.record("section \(index) cannot be inserted"); return }
            sections.insert([], at: index)
        }
        for (path, object) in batch.insertedRows.sorted(by: { $0.0 < $1.0 }) {
            guard sections.indices.contains(path.section), path.item <= sections[path.section].count else { Issue.record("an insert names no place: \(path)"); return }
            sections[path.section].insert(object, at: path.item)
        }
    }

    func controller<R>(_ controller: FetchedResultsController<R>, didChangeContentWith snapshot: FetchedResultsSnapshot) {
        snapshots.append(snapshot)
    }
}
