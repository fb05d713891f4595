import Foundation
import GraphStore

// Ported from Core Data by Tutorials' SurfJournal (kodecocodes/cdt-materials,
// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/JournalListViewController.swift):
// the list of entries, its CSV export in a background context, and the detail view's edit
// in a child of the main context. Changed for GraphStore and Linux:
// - no UIKit: a segue to the detail view is `prepareDetail(at:)`, which returns the view
//   controller `prepare(for:sender:)` filled in; the bar buttons, alert and dismissal are
//   recorded (`barButtonItem`, `alerts`, `dismissals`), a table reload counted;
// - the child context is `ManagedObjectContext(parent:)`, where the app made a
//   main-queue context and set its `parent`; `object(for:as:)` is Core Data's
//   `object(with:) as? JournalEntry`;
// - `performBackgroundTask` is async and returns the closure's value: the export's path
//   comes back to the main actor there, where the app used `DispatchQueue.main.async`;
// - the export goes to a folder given to `init`, where the app used `NSTemporaryDirectory()`;
// - the request sorts by `SortKey("date", ascending: false)`, where the app made
//   `NSSortDescriptor(key: #keyPath(JournalEntry.date), ascending: false)`, and is a
//   `FetchRequest<JournalEntry>()` (which throws for a `#Predicate` it cannot translate),
//   where the app called the generated `fetchRequest()`; it is made off the main actor
//   too, so it is `nonisolated`, and `init` makes the results controller before `self`
//   can be its delegate, so that part of `journalListFetchedResultsController()` is static;
// - the delegate's `didFinish` saves without `context.perform` (a GraphStore context is
//   confined by the compiler) and throws where the app called `fatalError`.

@MainActor final class JournalListViewController {
    let coreDataStack: CoreDataStack
    var fetchedResultsController: FetchedResultsController<JournalEntry>
    /// Where the export is written.
    nonisolated let exportDirectory: String

    /// The left bar button: "Export", or an activity indicator while exporting.
    var barButtonItem = "Export"
    /// The alerts shown, by message.
    var alerts: [String] = []
    /// How many times a presented view was dismissed.
    var dismissals = 0
    /// How many times the table was reloaded.
    var reloads = 0

    init(coreDataStack: CoreDataStack, exportDirectory: String) throws {
        self.coreDataStack = coreDataStack
        self.exportDirectory = exportDirectory
        fetchedResultsController = try Self.journalListFetchedResultsController(mainContext: coreDataStack.mainContext)
        try configureView()
    }

    /// The detail view for the entry at `indexPath`, editing it in a child of the main
    /// context (the app's "SegueListToDetail").
    func prepareDetail(at indexPath: IndexPath) throws -> JournalEntryViewController {
        let detailViewController = JournalEntryViewController()
        let surfJournalEntry = try fetchedResultsController.object(at: indexPath)
        let childContext = ManagedObjectContext(parent: coreDataStack.mainContext)
        let childEntry = try? childContext.object(for: surfJournalEntry.objectID, as: JournalEntry.self)
        detailViewController.journalEntry = childEntry
        detailViewController.context = childContext
        detailViewController.delegate = self
        return detailViewController
    }

    func exportButtonTapped() async {
        await exportCSVFile()
    }

    /// Follows the list's results (the app made the controller here too).
    private func configureView() throws {
        fetchedResultsController.delegate = self
        try fetchedResultsController.performFetch()
    }

    private func exportCSVFile() async {
        barButtonItem = "activity indicator"
        // 1: in a background context of its own.
        let exportFilePath = try? await coreDataStack.storeContainer.performBackgroundTask { context -> String? in
            var results: [JournalEntry] = []
            do {
                results = try context.fetch(try self.surfJournalFetchRequest())
            } catch {
                print("ERROR: \(error)")
            }
            // 2: an empty file.
            let exportFilePath = self.exportDirectory + "/export.csv"
            let exportFileURL = URL(fileURLWithPath: exportFilePath)
            _ = FileManager.default.createFile(atPath: exportFilePath, contents: Data(), attributes: nil)
            // 3: opened for writing.
            let fileHandle: FileHandle?
            do {
                fileHandle = try FileHandle(forWritingTo: exportFileURL)
            } catch {
                print("ERROR: \(error)")
                fileHandle = nil
            }
            guard let fileHandle else { return nil }
            // 4: each entry's line, in the list's order.
            for journalEntry in results {
                fileHandle.seekToEndOfFile()
                guard let csvData = journalEntry.csv().data(using: .utf8, allowLossyConversion: false) else { continue }
                fileHandle.write(csvData)
            }
            // 5
            fileHandle.closeFile()
            print("Export Path: \(exportFilePath)")
            return exportFilePath
        }
        // 6: back on the main actor.
        barButtonItem = "Export"
        if let exportFilePath { showExportFinishedAlertView(exportFilePath) }
    }

    private func showExportFinishedAlertView(_ exportPath: String) {
        alerts.append("The exported CSV file can be found at \(exportPath)")
    }

    /// The list's controller, before its fetch (`init` makes it before `self` can be its
    /// delegate, so it is static).
    private static func journalListFetchedResultsController(mainContext: ManagedObjectContext) throws -> FetchedResultsController<JournalEntry> {
        FetchedResultsController(
            fetchRequest: try surfJournalFetchRequest(),
            managedObjectContext: mainContext,
            sectionNameKeyPath: nil
        )
    }

    nonisolated func surfJournalFetchRequest() throws -> FetchRequest<JournalEntry> {
        try Self.surfJournalFetchRequest()
    }

    nonisolated static func surfJournalFetchRequest() throws -> FetchRequest<JournalEntry> {
        var fetchRequest = try FetchRequest<JournalEntry>()
        fetchRequest.fetchBatchSize = 20
        fetchRequest.sortKeys = [SortKey("date", ascending: false)]
        return fetchRequest
    }

    /// The table's rows: the entries, newest first.
    var numberOfRows: Int { fetchedResultsController.sections?.first?.numberOfObjects ?? 0 }

    private func dismiss() {
        dismissals += 1
    }
}

extension JournalListViewController: @preconcurrency FetchedResultsControllerDelegate {
    func controllerDidChangeContent<R>(_ controller: FetchedResultsController<R>) {
        reloads += 1
    }
}

extension JournalListViewController: JournalEntryDelegate {
    func didFinish(viewController: JournalEntryViewController, didSave: Bool) throws {
        // 1: nothing to save.
        guard didSave, let context = viewController.context, context.hasChanges else {
            dismiss()
            return
        }
        // 2: the child's changes become the main context's…
        try context.save()
        // 3: …which go to the store.
        try coreDataStack.saveContext()
        // 4
        dismiss()
    }
}
