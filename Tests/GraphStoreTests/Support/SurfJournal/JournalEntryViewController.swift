import Foundation
import GraphStore

// Ported from Core Data by Tutorials' SurfJournal (kodecocodes/cdt-materials,
// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/JournalEntryViewController.swift):
// the detail view, editing an entry in the context the list hands it (a child of the main
// context). Changed for GraphStore and Linux:
// - no UIKit: the outlets are plain values a test fills in, the actions plain methods;
// - the delegate's `didFinish` throws where the app's list called `fatalError`, so the
//   actions throw;
// - the context is optional where the app had an implicitly unwrapped one;
// - `rating` is the generated `Int16?` where the app's class had an `NSNumber?`.

/// What the detail view tells the list when it is done.
@MainActor protocol JournalEntryDelegate {
    func didFinish(viewController: JournalEntryViewController, didSave: Bool) throws
}

/// A text field's text.
struct TextField {
    var text: String?
}

/// A segmented control's selection (-1 for none).
struct SegmentedControl {
    var selectedSegmentIndex = -1
}

@MainActor final class JournalEntryViewController {
    var journalEntry: JournalEntry?
    var context: ManagedObjectContext?
    var delegate: (any JournalEntryDelegate)?

    var title: String?
    var heightTextField = TextField()
    var periodTextField = TextField()
    var windTextField = TextField()
    var locationTextField = TextField()
    var ratingSegmentedControl = SegmentedControl()

    func viewDidLoad() {
        configureView()
    }

    private func configureView() {
        guard let journalEntry else { return }
        title = journalEntry.stringForDate()
        heightTextField.text = journalEntry.height
        periodTextField.text = journalEntry.period
        windTextField.text = journalEntry.wind
        locationTextField.text = journalEntry.location
        guard let rating = journalEntry.rating else { return }
        ratingSegmentedControl.selectedSegmentIndex = Int(rating) - 1
    }

    private func updateJournalEntry() {
        guard let entry = journalEntry else { return }
        entry.date = Date()
        entry.height = heightTextField.text
        entry.period = periodTextField.text
        entry.wind = windTextField.text
        entry.location = locationTextField.text
        entry.rating = Int16(ratingSegmentedControl.selectedSegmentIndex + 1)
    }

    func cancelButtonWasTapped() throws {
        try delegate?.didFinish(viewController: self, didSave: false)
    }

    func saveButtonWasTapped() throws {
        updateJournalEntry()
        try delegate?.didFinish(viewController: self, didSave: true)
    }
}
