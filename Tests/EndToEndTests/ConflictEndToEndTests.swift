import CSQLite
import Foundation
import Testing

/// Two `graphstore` processes on one store: a change the other process saved after this one
/// read an object is a conflict (133020) at this one's save, never a silent overwrite; then
/// `reload` takes the stored values and `save --force` keeps this session's.
@Suite struct ConflictEndToEndTests {
    /// A `graphstore` reading commands from a pipe. Each `run` writes its lines and a
    /// `.print` marker, and reads the output (standard error merged in, in order) up to the
    /// marker: the two processes' steps interleave in a known order, with no sleep.
    final class PipedSession {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var pending = ""
        private var marks = 0

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: GraphStoreBinary.path)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = FileManager.default.temporaryDirectory.path
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }

        /// The process's ID.
        var processIdentifier: Int32 { process.processIdentifier }

        /// Runs lines and returns what they printed.
        func run(_ lines: String...) throws -> String {
            marks += 1
            let marker = "-- step \(marks) done --"
            try input.fileHandleForWriting.write(contentsOf: Data((lines + [".print \(marker)"]).map { $0 + "\n" }.joined().utf8))
            while !pending.contains(marker + "\n") {
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { throw ProcessEnded(output: pending) }
                pending += String(decoding: data, as: UTF8.self)
            }
            let range = try #require(pending.range(of: marker + "\n"))
            defer { pending = String(pending[range.upperBound...]) }
            return String(pending[..<range.lowerBound])
        }

        /// Ends the input and returns the exit status.
        func finish() throws -> Int32 {
            try input.fileHandleForWriting.close()
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return process.terminationStatus
        }

        struct ProcessEnded: Error {
            var output: String
        }
    }

    /// Book/p1's title, price and version as stored.
    private func bookOne(_ path: String) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "cannot open" }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "SELECT ZTITLE, ZPRICE, Z_OPT FROM ZBOOK WHERE Z_PK = 1", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return "no row" }
        return "\(String(cString: sqlite3_column_text(statement, 0))) \(sqlite3_column_double(statement, 1)) v\(sqlite3_column_int64(statement, 2))"
    }

    @Test func aChangeSavedByAnotherProcessIsAConflictThenReloadOrSaveForce() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let session = try PipedSession(["--write", store])
        _ = try session.run(".bail off")
        // A reads the book through fetch (which streams its objects and lets them go).
        #expect(try session.run("fetch Book where title == 'The first book'").contains("| Book/p1 | 10    | The first book |"))
        // B changes and saves it.
        let other = try GraphStoreBinary.run(["--write", store, "-c", "set Book/p1 price=99", "-c", "save"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(bookOne(store) == "The first book 99.0 v2")

        // A changes the price and saves: a conflict naming both values; nothing written.
        let conflict = try session.run("set Book/p1 price=5", "save")
        #expect(conflict == """
            updated Book/p1: price
            stdin:6: save failed (133020): Book/p1 was changed by someone else since it was read (version 1, now version 2); \
            nothing was written and the changes are still pending
              price: yours 5, stored 99
            hint: reload Book/p1 to take the stored values, or save --force to keep yours

            """)
        #expect(bookOne(store) == "The first book 99.0 v2")
        #expect(try session.run("show Book/p1.price").contains("| Book/p1 | 5     |"))

        // reload (every conflicting object) takes B's values and version: saving again works.
        let reloaded = try session.run("reload", "show Book/p1.price", "set Book/p1 price=6", "save")
        #expect(reloaded.contains("reloaded Book/p1\n"))
        #expect(reloaded.contains("| Book/p1 | 99    |"))
        #expect(reloaded.contains("saved: 0 inserted, 1 updated, 0 deleted\n"))
        #expect(bookOne(store) == "The first book 6.0 v3")

        // Again, and this time A keeps its version with save --force. A still holds the book
        // it saved, so the title B changed differs too, and is written over: the whole object.
        let retitled = try GraphStoreBinary.run(["--write", store, "-c", "set Book/p1 title=\"Retitled\"", "-c", "save"])
        #expect(retitled.status == 0, "\(retitled.stderr)")
        #expect(try session.run("set Book/p1 price=7", "save").contains("""
              price: yours 7, stored 6
              title: yours "The first book", stored "Retitled"
            hint: reload Book/p1 to take the stored values, or save --force to keep yours
            """))
        let forced = try session.run("save --force")
        #expect(forced == """
            saved: 0 inserted, 1 updated, 0 deleted
            overwrote: Book/p1 was changed by someone else since it was read (version 3, now version 4)
              price: yours 7, stored 6
              title: yours "The first book", stored "Retitled"

            """)
        #expect(bookOne(store) == "The first book 7.0 v5")
        #expect(try session.run("reload").contains("reload: name the objects to read again"))
        #expect(try session.finish() == 1)
    }

    @Test func aRowAnotherProcessDeletedIsNamedAndReloadDropsIt() throws {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let session = try PipedSession(["--write", store])
        _ = try session.run(".bail off", "show Book/p1")
        let other = try GraphStoreBinary.run(["--write", store, "-c", "delete Book/p1", "-c", "save"])
        #expect(other.status == 0, "\(other.stderr)")
        let conflict = try session.run("set Book/p1 price=5", "save")
        #expect(conflict.contains("save failed (133020): Book/p1 was deleted by someone else since it was read (version 1); nothing was written"))
        #expect(conflict.contains("hint: reload Book/p1 to drop your changes to an object someone else deleted"))
        #expect(try session.run("save --force").contains("save failed (133020)"))
        let dropped = try session.run("reload Book/p1", ".changes", "save")
        #expect(dropped.contains("Book/p1 is no longer in the store: dropped\n"))
        #expect(dropped.contains("nothing to save\n"))
        _ = try session.finish()
    }
}
