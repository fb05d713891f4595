import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// `.output` and `.once` create their file only when it is written to, check it again then,
/// and never write over a store; `.open` never opens a store they write to.
@Suite struct RedirectionTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aFileIsCreatedOrEmptiedOnlyWhenItIsWritten() throws {
        let harness = try ShellHarness()
        let target = harness.directory + "/kept.txt"
        try "old\n".write(toFile: target, atomically: true, encoding: .utf8)
        // The command the .once was for failed before writing: the file is as it was.
        #expect(harness.run([".once kept.txt", ".rows Nope"]) == ExitStatus.commandFailed)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n")
        #expect(harness.run([".once kept.txt", ".print new"]) == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        // Nothing written: the file is still made, empty, as sqlite3 makes it.
        #expect(harness.run([".output empty.txt", ".output", ".once quiet.txt", ".mode csv"]) == 0)
        #expect(try Self.bytes(harness.directory + "/empty.txt").isEmpty)
        #expect(try Self.bytes(harness.directory + "/quiet.txt").isEmpty)
    }

    /// The name is checked again when the file is opened: a link that has come to point at
    /// the store since `.output` does not make output write over it.
    @Test func theTargetIsCheckedAgainWhenItIsOpened() throws {
        let harness = try ShellHarness()
        let store = harness.directory + "/examples/BookStore/BookStore.sqlite"
        let before = try Self.bytes(store)
        let link = harness.directory + "/out.txt"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: harness.directory + "/harmless.txt")
        #expect(harness.run([".output out.txt"]) == 0)
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        #expect(harness.run([".print hi"]) == ExitStatus.commandFailed)
        #expect(harness.diagnostics == "test:1: cannot write out.txt: it is the open store\n")
        #expect(try Self.bytes(store) == before)
    }

    @Test func aStoreThatOutputGoesToIsNotOpened() throws {
        let harness = try ShellHarness()
        let other = harness.directory + "/Other.sqlite"
        try FileManager.default.copyItem(atPath: ShellHarness.bookStore, toPath: other)
        let before = try Self.bytes(other)
        #expect(harness.run([".output Other.sqlite", ".open Other.sqlite"]) == ExitStatus.storeNotOpened)
        #expect(harness.diagnostics == "test:2: cannot open \(other): .output writes to it\n")
        #expect(try Self.bytes(other) == before)
        #expect(harness.shell.store?.path != other)
        // Ending the redirection makes the file it was asked for (empty: nothing was written).
        #expect(harness.run([".output", ".once Other.sqlite-wal", ".open Other.sqlite"]) == ExitStatus.storeNotOpened)
        #expect(harness.diagnostics.hasSuffix("test:3: cannot open \(other): .output writes to its write-ahead log\n"))
        #expect(harness.shell.store?.path != other)
    }

    @Test func aStoreThatTheJournalGoesToIsNotOpened() throws {
        let harness = try ShellHarness(write: true)
        let other = harness.directory + "/Other.sqlite"
        try FileManager.default.copyItem(atPath: ShellHarness.bookStore, toPath: other)
        #expect(harness.run([".journal Other.sqlite-wal", ".open Other.sqlite"]) == ExitStatus.storeNotOpened)
        #expect(harness.diagnostics == "test:2: cannot open \(other): .journal writes to its write-ahead log\n")
        #expect(harness.run([".journal examples/BookStore/BookStore.sqlite"]) == ExitStatus.commandFailed)
        #expect(harness.diagnostics.hasSuffix("test:1: cannot write examples/BookStore/BookStore.sqlite: it is the open store\n"))
    }
}
