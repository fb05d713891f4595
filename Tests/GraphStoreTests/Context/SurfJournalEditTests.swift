import Foundation
import Testing
@testable import GraphStore

/// SurfJournal's edit with cancel, ported from Core Data by Tutorials (kodecocodes/cdt-materials,
/// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/JournalListViewController.swift,
/// `prepare(for:sender:)` and `didFinish(viewController:didSave:)`, and
/// JournalEntryViewController.swift; the port and what it changes are in
/// Support/SurfJournal): the list hands the detail view an entry in a child of the main
/// context; Save saves the child, then the main context; Cancel drops the child. Run on the
/// app's own model and seed store from the corpus, the store's rows are read with plain SQL.
/// (ChildContextTests runs the same flow on the BookStore model.)
@Suite struct SurfJournalEditTests {
    /// Every row of the entries' table, by primary key.
    static func storedRows(_ storePath: String) throws -> [Int64: [SQLiteValue]] {
        let rows = try Connection(path: storePath, mode: .readOnly).rows(
            "SELECT Z_PK, Z_OPT, ZDATE, ZHEIGHT, ZPERIOD, ZWIND, ZLOCATION, ZRATING FROM ZJOURNALENTRY")
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in row[0].integer.map { ($0, Array(row.dropFirst())) } })
    }

    /// The list's fourth entry (not its newest) and the detail view editing it, its fields
    /// changed as a surfer would before tapping a button.
    @MainActor static func editFourthEntry(in app: SurfJournalApp) throws -> (entry: JournalEntry, detail: JournalEntryViewController) {
        let entry = try app.list.fetchedResultsController.object(at: IndexPath(item: 3, section: 0))
        let detail = try app.list.prepareDetail(at: IndexPath(item: 3, section: 0))
        detail.viewDidLoad()
        #expect(detail.context?.parent === app.coreDataStack.mainContext)
        #expect(detail.journalEntry !== entry)
        #expect(detail.journalEntry?.objectID == entry.objectID)
        #expect(detail.title == entry.stringForDate() && !(detail.title ?? "").isEmpty)
        #expect(detail.heightTextField.text == entry.height && detail.locationTextField.text == entry.location)
        #expect(detail.ratingSegmentedControl.selectedSegmentIndex == Int(entry.rating ?? 0) - 1)
        detail.heightTextField.text = "12.5"
        detail.periodTextField.text = "18"
        detail.windTextField.text = "2.0"
        detail.locationTextField.text = "Pipeline"
        detail.ratingSegmentedControl.selectedSegmentIndex = 4
        return (entry, detail)
    }

    @MainActor @Test func saveSavesTheChildThenTheMainContext() throws {
        guard let app = try SurfJournalApp.launch("SurfJournalEditTests.saveSavesTheChildThenTheMainContext") else { return }
        let before = try Self.storedRows(app.storePath)
        #expect(before.count == 5000)
        let (entry, detail) = try Self.editFourthEntry(in: app)
        let key = try #require(entry.objectID.primaryKey)
        let reloads = app.list.reloads

        let tapped = Date()
        try detail.saveButtonWasTapped()
        let saved = Date()

        #expect(app.list.dismissals == 1)
        #expect(detail.context?.hasChanges == false)
        #expect(!app.coreDataStack.mainContext.hasChanges)
        // The main context's own object shows the edit, and the list has it first now.
        #expect(entry.height == "12.5" && entry.location == "Pipeline" && entry.rating == 5)
        #expect(app.list.reloads > reloads)
        #expect(try app.list.fetchedResultsController.object(at: IndexPath(item: 0, section: 0)) === entry)
        // On disk: that row changed, and only that row.
        let after = try Self.storedRows(app.storePath)
        let row = try #require(after[key])
        #expect(row[0] == .integer((before[key]?[0].integer ?? 0) + 1))
        guard case .real(let date) = row[1] else { Issue.record("ZDATE is \(row[1])"); return }
        #expect(date >= tapped.timeIntervalSinceReferenceDate && date <= saved.timeIntervalSinceReferenceDate)
        #expect(Array(row[2...]) == [.text("12.5"), .text("18"), .text("2.0"), .text("Pipeline"), .integer(5)])
        #expect(after.filter { $0.key != key } == before.filter { $0.key != key })
    }

    @MainActor @Test func cancelDropsTheChildAndItsEdits() throws {
        guard let app = try SurfJournalApp.launch("SurfJournalEditTests.cancelDropsTheChildAndItsEdits") else { return }
        let before = try Self.storedRows(app.storePath)
        let entry: JournalEntry
        let height: String?
        let location: String?
        weak var child: ManagedObjectContext?
        do {
            let (edited, detail) = try Self.editFourthEntry(in: app)
            (entry, height, location) = (edited, edited.height, edited.location)
            child = detail.context
            try detail.cancelButtonWasTapped()
        }   // the dismissed view goes, and its child context with it

        #expect(app.list.dismissals == 1)
        #expect(!app.coreDataStack.mainContext.hasChanges)
        #expect(child == nil)
        #expect(app.coreDataStack.mainContext.children.allSatisfy { $0.context == nil })
        #expect(entry.height == height && entry.location == location)
        #expect(try app.list.fetchedResultsController.object(at: IndexPath(item: 3, section: 0)) === entry)
        try app.coreDataStack.saveContext()
        #expect(try Self.storedRows(app.storePath) == before)
    }
}
