import Foundation
import Testing
@testable import GraphStore

/// SurfJournal's CSV export, ported from Core Data by Tutorials (kodecocodes/cdt-materials,
/// 09-multiple-managed-object-contexts/projects/final/SurfJournal/SurfJournal/JournalListViewController.swift,
/// `exportCSVFile()`, with `JournalEntry+Helper.swift`'s `csv()`; the port and what it
/// changes are in Support/SurfJournal): in a background context of the app's
/// `PersistentContainer`, it fetches every `JournalEntry` newest first and writes each one's
/// line to a file, then reports the file on the main actor. Run on the app's own model and
/// seed store from the corpus, the file's lines are checked against the store's rows read
/// with plain SQL.
@Suite struct SurfJournalExportTests {
    /// The lines the export must write: each row's date in the short style, then its
    /// height, period, wind, location and rating, and a last empty field, newest first.
    static func expectedLines(_ storePath: String) throws -> [String] {
        let rows = try Connection(path: storePath, mode: .readOnly).rows(
            "SELECT ZDATE, ZHEIGHT, ZPERIOD, ZWIND, ZLOCATION, ZRATING FROM ZJOURNALENTRY ORDER BY ZDATE DESC, Z_PK")
        let formatter = DateFormatter()
        formatter.dateStyle = .short
        return rows.map { row in
            var date = ""
            if case .real(let seconds) = row[0] { date = formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)) }
            let texts = row[1...4].map { value in if case .text(let text) = value { text } else { "" } }
            let rating = row[5].integer.map { String($0) } ?? ""
            return ([date] + texts + [rating, ""]).joined(separator: ",")
        }
    }

    @MainActor @Test func theExportWritesEveryEntrysLineNewestFirstAndReportsTheFile() async throws {
        guard let app = try SurfJournalApp.launch("SurfJournalExportTests") else { return }
        await app.list.exportButtonTapped()

        let exportPath = app.list.exportDirectory + "/export.csv"
        #expect(app.list.alerts == ["The exported CSV file can be found at \(exportPath)"])
        #expect(app.list.barButtonItem == "Export")
        let text = try String(contentsOfFile: exportPath, encoding: .utf8)
        #expect(text.hasSuffix(",\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let expected = try Self.expectedLines(app.storePath)
        #expect(expected.count == 5000)
        #expect(lines.count == expected.count)
        #expect(lines == expected, "first difference: \(zip(lines, expected).first { $0 != $1 }.map { "\($0) ≠ \($1)" } ?? "none")")
        // The export read in a background context: the main context is as it was.
        #expect(!app.coreDataStack.mainContext.hasChanges)
        #expect(app.list.numberOfRows == 5000)
    }
}
