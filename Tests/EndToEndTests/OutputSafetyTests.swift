import Foundation
import Testing

/// Output through the built binary: never over the open store, and never lost silently —
/// a write that fails fails the command that wrote, and a closed pipe ends the program as
/// it ends `cat`.
@Suite struct OutputSafetyTests {
    /// A copy of the example store in a fresh directory, and its bytes.
    static func store() throws -> (path: String, directory: String, bytes: Data) {
        let path = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        return (path, (path as NSString).deletingLastPathComponent, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The files in the store's directory, sorted.
    static func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test func outputNeverWritesOverTheOpenStoreHoweverItIsNamed() throws {
        let (store, directory, before) = try Self.store()
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.sqlite", withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: directory + "/hard.sqlite")
        let spellings = [store, directory + "/./BookStore.sqlite", directory + "/../" + (directory as NSString).lastPathComponent + "/BookStore.sqlite",
                         directory + "/link.sqlite", directory + "/hard.sqlite"]
        for spelling in spellings {
            for command in [".output", ".once", "\\o"] {
                let result = try GraphStoreBinary.run([store, "-c", "\(command) \(spelling)", "-c", ".print hi"])
                #expect(result.status == 1, "\(command) \(spelling)")
                #expect(result.stderr == "-c:1: cannot write \(spelling): it is the open store\n", "\(command) \(spelling)")
                #expect(result.stdout.isEmpty)
            }
            let journal = try GraphStoreBinary.run(["--write", store, "-c", ".journal \(spelling)"])
            #expect(journal.status == 1)
            #expect(journal.stderr == "-c:1: cannot write \(spelling): it is the open store\n")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try Self.files(directory) == ["BookStore.sqlite", "hard.sqlite", "link.sqlite"])
    }

    /// export and diff --script write files too: never over the open store or its
    /// companions, however named, nor over the store diff compares with.
    @Test func exportAndDiffScriptsNeverWriteOverAStore() throws {
        let (store, directory, before) = try Self.store()
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.sqlite", withDestinationPath: store)
        let other = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let otherBytes = try Data(contentsOf: URL(fileURLWithPath: other))
        for spelling in [store, directory + "/link.sqlite", directory + "/./BookStore.sqlite"] {
            let export = try GraphStoreBinary.run(["--write", store, "-c", "export Book \(spelling)"])
            #expect(export.status == 1, "\(spelling)")
            #expect(export.stderr == "-c:1: cannot write \(spelling): it is the open store\n", "\(export.stderr)")
            let diff = try GraphStoreBinary.run([store, "-c", "diff \(other) --script \(spelling)"])
            #expect(diff.status == 1, "\(spelling)")
            #expect(diff.stderr == "-c:1: cannot write \(spelling): it is the open store\n", "\(diff.stderr)")
        }
        let wal = try GraphStoreBinary.run(["--write", store, "-c", "export Book \(store)-wal"])
        #expect(wal.stderr == "-c:1: cannot write \(store)-wal: it is the open store's write-ahead log\n", "\(wal.stderr)")
        let compared = try GraphStoreBinary.run([store, "-c", "diff \(other) --script \(other)"])
        #expect(compared.status == 1)
        #expect(compared.stderr == "-c:1: cannot write \(other): it is a file of the store compared, \(other)\n", "\(compared.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBytes)
        #expect(try Self.files(directory) == ["BookStore.sqlite", "link.sqlite"])
    }

    /// The companions are refused before they exist, by name; a store opened through a link
    /// has them beside the link's target, where SQLite makes them.
    @Test func outputNeverWritesTheStoresCompanionFiles() throws {
        let (store, directory, before) = try Self.store()
        try FileManager.default.createDirectory(atPath: directory + "/elsewhere", withIntermediateDirectories: true)
        let link = directory + "/elsewhere/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        let refused = [("-wal", "the open store's write-ahead log"), ("-shm", "the open store's shared-memory file"), ("-journal", "the open store's rollback journal")]
        for (suffix, name) in refused {
            let result = try GraphStoreBinary.run([link, "-c", ".output \(store)\(suffix)", "-c", ".print hi"])
            #expect(result.status == 1, "\(suffix)")
            #expect(result.stderr == "-c:1: cannot write \(store)\(suffix): it is \(name)\n")
        }
        // Beside the link is not the store's: writing there is fine.
        let beside = try GraphStoreBinary.run([link, "-c", ".output \(link)-wal", "-c", ".print hi"])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(try String(contentsOfFile: link + "-wal", encoding: .utf8) == "hi\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try Self.files(directory) == ["BookStore.sqlite", "elsewhere"])
    }

    /// A journal's `.output STORE` is refused as a typed one is, by replay and by its dry run.
    @Test func aReplayedOutputOntoTheStoreIsRefused() throws {
        let (store, directory, before) = try Self.store()
        let journal = directory + "/bad.journal"
        try ".output \(store)\n.print hi\n".write(toFile: journal, atomically: true, encoding: .utf8)
        for arguments in [[store, "-c", "replay \(journal) --dry-run"], ["--write", store, "-c", "replay \(journal)"]] {
            let result = try GraphStoreBinary.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("-c:1: \(journal):1: cannot write \(store): it is the open store"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    /// `.open` of the file output goes to is refused: that store would be written over.
    @Test func aStoreThatOutputGoesToIsNotOpened() throws {
        let (store, directory, before) = try Self.store()
        let other = directory + "/Other.sqlite"
        try before.write(to: URL(fileURLWithPath: other))
        let result = try GraphStoreBinary.run(["--no-bail", store, "-c", ".output \(other)", "-c", ".open \(other)", "-c", ".entities"])
        #expect(result.status == 4)
        #expect(result.stderr == "-c:2: cannot open \(other): .output writes to it\n")
        // The first store stayed open, and output went where it was sent.
        #expect(try String(contentsOfFile: other, encoding: .utf8).contains("| BookCategory | ZBOOKCATEGORY | 2     |"))
    }

    // MARK: - Failed writes

    @Test func aFailedWriteFailsTheCommandThatWrote() throws {
        for command in [".output", ".once"] {
            let result = try GraphStoreBinary.run([GraphStoreBinary.exampleStore, "-c", "\(command) /dev/full", "-c", ".entities", "-c", ".print after"])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == "-c:2: cannot write /dev/full: No space left on device\n", "\(command)")
            // The script stopped there (--bail is the default for scripts).
            #expect(result.stdout.isEmpty, "\(command)")
        }
        let carryOn = try GraphStoreBinary.run(["--no-bail", GraphStoreBinary.exampleStore, "-c", ".output /dev/full", "-c", ".print a", "-c", ".print b", "-c", ".output", "-c", ".print back"])
        #expect(carryOn.status == 1)
        #expect(carryOn.stderr == "-c:2: cannot write /dev/full: No space left on device\n-c:3: cannot write /dev/full: No space left on device\n")
        #expect(carryOn.stdout == "back\n")
    }

    @Test func aFullStandardOutputFailsTheCommand() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let running = try RunningBinary([GraphStoreBinary.exampleStore, "-c", ".print hi", "-c", ".print never"], standardOutput: full)
        let ending = try running.finish()
        #expect(!ending.killedBySignal)
        #expect(ending.status == 1)
        #expect(ending.stderr == "-c:1: cannot write standard output: No space left on device\n")
    }

    /// A FIFO whose reader goes away mid-result: the command fails with the pipe's error
    /// (the process is not killed by SIGPIPE, and the script stops).
    @Test func aClosedPipeBehindOutputFailsTheCommand() throws {
        let (_, directory, _) = try Self.store()
        let fifo = directory + "/results"
        #expect(mkfifo(fifo, 0o600) == 0)
        let running = try RunningBinary(["--mode", "csv", LargeStore.path, "-c", ".output \(fifo)", "-c", ".rows Book", "-c", ".print never"])
        // The reader comes and goes: open, wait for the first result, close.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        var waiting = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 60_000) == 1)
        var first = [UInt8](repeating: 0, count: 16)
        #expect(read(reader, &first, first.count) > 0)
        close(reader)
        let ending = try running.finish()
        #expect(!ending.killedBySignal)
        #expect(ending.status == 1)
        #expect(ending.stderr == "-c:2: cannot write \(fifo): Broken pipe\n")
    }

    /// `graphstore … | head -1`: the reader of standard output went away. graphstore ends
    /// as `cat` and `sqlite3` do — silently, by SIGPIPE — and at once, not after producing
    /// the rest of the result.
    @Test func aClosedStandardOutputEndsTheProgramQuietlyBySIGPIPE() throws {
        let running = try RunningBinary(["--mode", "csv", LargeStore.path, "-c", ".rows Book", "-c", ".print never"])
        let output = try #require(running.output)
        #expect(try output.read(upToCount: 16)?.isEmpty == false)
        let ending = try running.finish()
        #expect(ending.killedBySignal)
        #expect(ending.status == SIGPIPE)
        #expect(ending.stderr.isEmpty)
    }
}
