import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// `migrate` running in the shell (`--dry-run`, `--write`, `--no-backup`) on a copy of the
/// BookStore example and its History bundle.
@Suite struct MigrationRunCommandTests {
    static let history = "examples/BookStore/History.xcdatamodeld"

    /// The store file's bytes and its log's (empty when there is none).
    static func bytes(_ path: String) -> [Data] {
        ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) ?? Data() }
    }

    static func store(_ harness: ShellHarness) -> String { harness.directory + "/examples/BookStore/BookStore.sqlite" }

    @Test func dryRunChangesNotOneByte() throws {
        let harness = try ShellHarness()
        let store = Self.store(harness)
        let before = Self.bytes(store)
        let output = try harness.output(of: "migrate --model \(Self.history) --dry-run")
        #expect(output.contains("Can be migrated in 1 step"))
        #expect(output.contains("Dry run: \(store) would migrate to BookStore 3 in 1 step"), "\(output)")
        #expect(output.contains("nothing was changed"))
        #expect(Self.bytes(store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory + "/examples/BookStore").sorted()
            == ["BookStore.sqlite", "History.xcdatamodeld", "Mappings", "inspect.graphstore"])
    }

    @Test func migrateWithWriteReplacesTheStoreAndReopensIt() throws {
        let harness = try ShellHarness(write: true)
        let store = Self.store(harness)
        let books = try harness.output(of: "count BookCategory")
        weak let old = harness.shell.store
        let output = try harness.output(of: "migrate --model \(Self.history) --walk")
        // The old store was let go of: no connection of this process is left on the old file.
        #expect(old == nil)
        #expect(output.contains("2 steps through every version, each inferred"), "\(output)")
        #expect(output.contains("Migrated \(store) to BookStore 3 in 2 steps"), "\(output)")
        #expect(output.contains("The old store is kept at \(store).backup."))
        #expect(FileManager.default.fileExists(atPath: store + ".backup"))
        // The shell now has the migrated store open, with the target version's model.
        #expect(harness.shell.store?.metadata.versionHashes == (try ModelVersions(path: harness.directory + "/" + Self.history)).version(named: "BookStore 3")?.versionHashes)
        #expect(try harness.output(of: "count BookCategory") == books)
        // What is saved after the migration is in the file another process reads.
        try harness.shell.runStatement(#"insert BookCategory name="After""#)
        try harness.shell.runStatement("save")
        let reader = try PersistentStore(path: store)
        #expect(try reader.count(of: reader.mapping(for: "BookCategory")) == 3)
        #expect(try harness.output(of: "migrate --model \(Self.history) --plan").contains("Nothing to migrate: the store is at BookStore 3."))
    }

    /// Unsaved changes would be lost when the migrated store is reopened: refused.
    @Test func unsavedChangesAreNotDropped() throws {
        let harness = try ShellHarness(write: true)
        let store = Self.store(harness)
        try harness.shell.runStatement(#"insert BookCategory name="Poetry""#)
        let before = Self.bytes(store)
        let error = try #require(MigrationCommandTests.failure(harness, "migrate --model \(Self.history)"))
        #expect(error.exitCode == ExitStatus.unsavedChanges)
        #expect(error.message.hasSuffix("not saved; save or rollback first"), "\(error.message)")
        #expect(Self.bytes(store) == before && harness.shell.context?.hasChanges == true)
    }

    @Test func noBackupKeepsNoBackup() throws {
        let harness = try ShellHarness(write: true)
        let store = Self.store(harness)
        _ = try harness.output(of: "migrate --model \(Self.history) --no-backup")
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))
        #expect(try harness.output(of: "migrate --model \(Self.history) --plan").contains("Nothing to migrate"))
    }

    /// A target whose validation the store's objects fail: the command fails, says why, and
    /// the store is as it was (and still open).
    @Test func aFailedMigrationLeavesTheStoreAsItWas() throws {
        let harness = try ShellHarness(write: true)
        let strict = MigrationCommandTests.book.replacingOccurrences(
            of: #"name="title" optional="YES" attributeType="String""#, with: #"name="title" optional="YES" attributeType="String" maxValueString="2""#)
            + #"<attribute name="isbn" optional="YES" attributeType="String"/>"#
        let bundle = try MigrationCommandTests.bundle(in: harness, [MigrationCommandTests.book, strict])
        let store = Self.store(harness)
        let before = Self.bytes(store)
        let error = try #require(MigrationCommandTests.failure(harness, "migrate --model \(bundle)"))
        #expect(error.exitCode == ExitStatus.commandFailed)
        #expect(error.message.hasPrefix("migrate: \(store): the migrated objects fail validation (134110): Book/p"), "\(error.message)")
        #expect(error.message.hasSuffix("; the store is unchanged"))
        #expect(Self.bytes(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store + ".backup"))
        #expect(harness.shell.store != nil)
        // A dry run reports the same failures, exits with 3, and changes nothing either.
        let dry = try #require(MigrationCommandTests.failure(harness, "migrate --model \(bundle) --dry-run"))
        #expect(dry.exitCode == ExitStatus.validationFailures)
        #expect(harness.output.contains("would fail validation: Book/p"))
        #expect(Self.bytes(store) == before)
    }
}
