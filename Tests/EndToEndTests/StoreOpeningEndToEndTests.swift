import Foundation
import Testing
import TestScratch

/// The built `graphstore` on stores that cannot be opened (each cause its own sentence,
/// exit status 4), on stores read through a private copy (none is left behind, whatever
/// ends the process), through symbolic links, and on a damaged `Z_MODELCACHE`.
@Suite struct StoreOpeningEndToEndTests {
    /// A temporary directory of the test's own, for `TMPDIR`.
    private func temporaryDirectory() throws -> String {
        try ScratchDirectory.make("tmpdir").path
    }

    /// The example store with a committed row only in its `-wal`, named like the example
    /// (read in place).
    private func storeWithLog() throws -> String {
        try BrokenStores.withWriteAheadLog(from: GraphStoreBinary.exampleStore, name: "BookStore.sqlite")
    }

    /// The example store with a hot `-journal`, named like the example: read from a
    /// private copy, where the journal is rolled back.
    private func storeWithJournal() throws -> String {
        try BrokenStores.withHotJournal(from: GraphStoreBinary.exampleStore, name: "BookStore.sqlite")
    }

    /// Runs `graphstore` and checks that the store was not opened (status 4) and why.
    private func expectNotOpened(_ arguments: [String], saying sentence: String, environment: [String: String] = [:], through launcher: [String] = []) throws {
        let result = try GraphStoreBinary.run(arguments, environment: environment, through: launcher)
        #expect(result.status == 4, "\(arguments): status \(result.status), \(result.stderr)")
        #expect(result.stderr == "graphstore: \(sentence)\n")
    }

    // MARK: - Private copies

    /// SIGTERM, SIGHUP, and SIGINT in a script (where Ctrl-C ends the process), while the
    /// process reads a store through a private copy and waits for its next command.
    /// (graphstore ignores a SIGPIPE sent to it: a closed pipe is noticed where it is
    /// written, below.)
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalLeavesNoPrivateCopy(signal: Int32) throws {
        let store = try storeWithJournal()
        let temporary = try temporaryDirectory()
        let process = try SpawnedProcess(arguments: [store], environment: ["TMPDIR": temporary, "HOME": temporary, "PATH": "/usr/bin:/bin"])
        process.send(".print ready\n")
        #expect(process.waitFor(output: "ready"), "\(process.stderr)")
        #expect(BrokenStores.privateCopies(in: temporary).count == 1)
        kill(process.pid, signal)
        #expect(process.waitForSignal() == signal, "\(process.stderr)")
        #expect(BrokenStores.privateCopies(in: temporary) == [])
    }

    /// `graphstore STORE | head -1`: the reader of standard output goes away, and
    /// graphstore ends itself by SIGPIPE at its next write; its private copy goes too.
    @Test func aClosedStandardOutputLeavesNoPrivateCopy() throws {
        let store = try storeWithJournal()
        let temporary = try temporaryDirectory()
        let process = try SpawnedProcess(arguments: [store], environment: ["TMPDIR": temporary, "HOME": temporary, "PATH": "/usr/bin:/bin"])
        process.send(".print ready\n")
        #expect(process.waitFor(output: "ready"), "\(process.stderr)")
        #expect(BrokenStores.privateCopies(in: temporary).count == 1)
        process.closeStandardOutput()
        process.send(".print gone\n")
        #expect(process.waitForSignal() == SIGPIPE, "\(process.stderr)")
        #expect(BrokenStores.privateCopies(in: temporary) == [])
    }

    /// A log no other program uses is read in place: no private copy, no byte written.
    /// Once another process (this test's) has the store open, the log changes under a
    /// reader, so it is read from a private copy: a snapshot with what that writer
    /// committed.
    @Test func aLogIsReadInPlaceUnlessAnotherProgramHasItOpen() throws {
        let store = try storeWithLog()
        let temporary = try temporaryDirectory()
        let environment = ["TMPDIR": temporary, "HOME": temporary, "PATH": "/usr/bin:/bin"]
        let before = BrokenStores.bytes(of: store)
        let alone = try SpawnedProcess(arguments: [store], environment: environment)
        alone.send("count Book\n.print ready\n")
        #expect(alone.waitFor(output: "ready"), "\(alone.stderr)")
        #expect(alone.stdout.contains("| 4 "), "\(alone.stdout)")
        #expect(BrokenStores.privateCopies(in: temporary) == [])
        alone.send(".quit\n")
        #expect(alone.waitForSignal() == nil && alone.exitStatus == 0, "\(alone.stderr)")
        #expect(BrokenStores.bytes(of: store) == before)

        let writer = try SQLiteFile(store)
        try writer.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (100, 1, 1, 'Written while open')")
        let shared = try SpawnedProcess(arguments: [store], environment: environment)
        shared.send("count Book\n.print ready\n")
        #expect(shared.waitFor(output: "ready"), "\(shared.stderr)")
        #expect(shared.stdout.contains("| 5 "), "\(shared.stdout)")
        #expect(BrokenStores.privateCopies(in: temporary).count == 1)
        shared.send(".quit\n")
        #expect(shared.waitForSignal() == nil && shared.exitStatus == 0, "\(shared.stderr)")
        #expect(BrokenStores.privateCopies(in: temporary) == [])
        _ = writer
    }

    @Test func aZMaxBeyondInt64IsAnErrorAndLeavesNoPrivateCopy() throws {
        let store = try BrokenStores.withWriteAheadLog(
            from: GraphStoreBinary.exampleStore, alsoRunning: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1e300 WHERE Z_NAME = 'Book'")
        let temporary = try temporaryDirectory()
        try expectNotOpened(
            [store, ".entities"],
            saying: "\(store): damaged Core Data bookkeeping: Z_PRIMARYKEY row Z_ENT 1 (Book): Z_MAX holds real 1e+300, which is not a whole number of 64 bits",
            environment: ["TMPDIR": temporary])
        #expect(BrokenStores.privateCopies(in: temporary) == [])
    }

    @Test func aFullTemporaryDirectoryIsADiskFullError() throws {
        let temporary = try temporaryDirectory()
        guard Self.mountTinyFileSystem(at: temporary) else { return }
        defer { Self.unmount(temporary) }
        let store = try storeWithJournal()
        try expectNotOpened(
            [store, ".entities"], saying: "\(store): disk full: no space left in \(temporary) for the private copy that reads its log",
            environment: ["TMPDIR": temporary])
        #expect(BrokenStores.privateCopies(in: temporary) == [])
    }

    /// Ctrl-C at the prompt still cancels the line, not the process, when the store is
    /// read through a private copy (whose removal on signals must leave the shell's own
    /// SIGINT handling alone); the copy goes when the session ends.
    @Test func controlCAtThePromptKeepsTheSessionWithAPrivateCopy() throws {
        let store = try storeWithJournal()
        let temporary = try temporaryDirectory()
        let terminal = try PseudoTerminal(
            arguments: [store], environment: ["HOME": temporary, "TMPDIR": temporary, "TERM": "xterm", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1"])
        #expect(terminal.waitFor { $0.currentLine == TerminalTests.prompt })
        #expect(BrokenStores.privateCopies(in: temporary).count == 1)
        terminal.type(".print never")
        terminal.type("\u{3}")
        #expect(terminal.waitFor { $0.currentLine == TerminalTests.prompt })
        terminal.type(".print alive\r")
        #expect(terminal.waitFor { $0.text.contains("alive") && $0.currentLine == TerminalTests.prompt })
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
        #expect(BrokenStores.privateCopies(in: temporary) == [])
    }

    // MARK: - Symbolic links

    @Test func aStoreReadThroughALinkShowsTheRowsInItsLog() throws {
        let store = try storeWithLog()
        let link = try ScratchDirectory.make("links").appendingPathComponent("BookStore.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
        let before = BrokenStores.bytes(of: store)
        let result = try GraphStoreBinary.run([link, ".rows Book"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(BrokenStores.loggedTitle))
        #expect(BrokenStores.bytes(of: store) == before)
    }

    // MARK: - Each cause its own sentence

    @Test(.timeLimit(.minutes(10))) func whatIsNotARegularFileIsRefused() throws {
        let folder = try ScratchDirectory.make("kinds").path
        let fifo = folder + "/pipe.sqlite"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Something to read, so that a program that opened it would not wait forever.
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        _ = write(writer, String(repeating: "x", count: 200), 200)
        try expectNotOpened([fifo, ".entities"], saying: "\(fifo) is a FIFO, not a store file")
        try expectNotOpened(["--write", fifo, ".entities"], saying: "\(fifo) is a FIFO, not a store file")
        try expectNotOpened([folder, ".entities"], saying: "\(folder) is a directory, not a store file")
        try expectNotOpened(["/dev/null", ".entities"], saying: "/dev/null is a character device, not a store file")
    }

    @Test func notADatabaseTruncatedAndDamagedAreToldApart() throws {
        let folder = try ScratchDirectory.make("bad-files").path
        let text = folder + "/notes.sqlite"
        try Data(String(repeating: "not a database ", count: 20).utf8).write(to: URL(fileURLWithPath: text))
        try expectNotOpened([text, ".entities"], saying: "\(text): not an SQLite database (no SQLite header)")

        let whole = try Data(contentsOf: URL(fileURLWithPath: GraphStoreBinary.exampleStore))
        let truncated = folder + "/truncated.sqlite"
        try whole.prefix(8192).write(to: URL(fileURLWithPath: truncated))
        try expectNotOpened([truncated, ".entities"], saying: "\(truncated): truncated: the header promises \(whole.count) bytes, the file has 8192")

        // Page 8 is Z_PRIMARYKEY's root in the example; its b-tree header is overwritten.
        var pages = whole
        pages.replaceSubrange(7 * 4096..<(7 * 4096 + 16), with: Data(repeating: 0xFF, count: 16))
        let damaged = folder + "/damaged.sqlite"
        try pages.write(to: URL(fileURLWithPath: damaged))
        try expectNotOpened([damaged, ".entities"], saying: "\(damaged): the database is damaged: Page 8: btreeInitPage() returns error code 11")
    }

    @Test func permissionDeniedForReadingAndForWriting() throws {
        guard let launcher = Self.unprivileged() else { return }
        let unreadable = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        #expect(chmod(unreadable, 0) == 0)
        try expectNotOpened([unreadable, ".entities"], saying: "\(unreadable): permission denied: this user may not read it", through: launcher)
        let readOnly = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        #expect(chmod(readOnly, 0o444) == 0)
        try expectNotOpened(
            ["--write", readOnly, ".entities"],
            saying: "\(readOnly): permission denied: this user may not write it or its folder (it can be opened read-only)", through: launcher)
        // Read-only, the same file opens.
        let result = try GraphStoreBinary.run([readOnly, ".entities"], through: launcher)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Another process (this test's) in a write transaction: `--write` is refused, naming
    /// it; reading is not (a rollback-journal writer that has not begun to commit, or any
    /// WAL writer, leaves the file as it was).
    @Test(arguments: ["WAL", "DELETE"])
    func aStoreAnotherProcessIsWritingIsLockedForWriting(journalMode: String) throws {
        let store = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: "PRAGMA journal_mode = \(journalMode)")
        let writer = try SQLiteFile(store)
        try writer.execute("BEGIN IMMEDIATE; UPDATE ZBOOK SET ZPRICE = 1")
        defer { try? writer.execute("ROLLBACK") }
        try expectNotOpened(
            ["--write", store, ".entities"],
            saying: "\(store): locked by another process (pid \(getpid())), which is writing to it; try again when it has finished")
        let reading = try GraphStoreBinary.run([store, ".entities"])
        #expect(reading.status == 0, "\(reading.stderr)")
    }

    /// A lock that goes while the open waits for it (as SQLite's busy timeout waits) is no
    /// refusal: another program using the store for a moment — its own transaction, or its
    /// connection recovering the log as it opens — must not make `--write` fail.
    @Test func aLockThatGoesWhileTheOpenWaitsIsNoRefusal() throws {
        let store = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: "PRAGMA journal_mode = WAL")
        let writer = try SQLiteFile(store)
        try writer.execute("BEGIN IMMEDIATE; UPDATE ZBOOK SET ZPRICE = 1")
        let running = try RunningBinary(["--write", store, ".entities"], standardOutput: FileHandle(forWritingAtPath: "/dev/null"))
        // It has found the lock and is waiting for it to go (sleeping between looks).
        let waiting = eventually {
            ((try? String(contentsOfFile: "/proc/\(running.pid)/wchan", encoding: .utf8)) ?? "").contains("nanosleep")
        }
        #expect(waiting)
        try writer.execute("ROLLBACK")
        let ending = try running.finish()
        #expect(ending.status == 0, "\(ending.stderr)")
    }

    /// A process rewriting the file itself (an exclusive lock in rollback-journal mode, or
    /// the checkpoint lock of a WAL store) stops readers too.
    @Test func aStoreBeingRewrittenIsLockedForReading() throws {
        let rollback = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: "PRAGMA journal_mode = DELETE")
        let writer = try SQLiteFile(rollback)
        try writer.execute("BEGIN EXCLUSIVE")
        try expectNotOpened(
            [rollback, ".entities"],
            saying: "\(rollback): locked by another process (pid \(getpid())), which is writing to it; try again when it has finished")
        try writer.execute("ROLLBACK")

        // The checkpointer's lock, byte 121 of the -shm (as SQLite's os_unix.c places it).
        let store = try storeWithLog()
        let shm = open(store + "-shm", O_RDWR)
        defer { close(shm) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 121
        lock.l_len = 1
        #expect(fcntl(shm, F_SETLK, &lock) == 0)
        try expectNotOpened(
            [store, ".entities"],
            saying: "\(store): locked by another process (pid \(getpid())), which is writing to it; try again when it has finished")
    }

    // MARK: - A damaged Z_MODELCACHE

    @Test func aDamagedModelCacheIsAWarningOnceAtOpen() throws {
        let store = try BrokenStores.changed(
            GraphStoreBinary.exampleStore, name: "BookStore.sqlite",
            sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB); INSERT INTO Z_MODELCACHE VALUES (x'0102030405')")
        let warning = "graphstore: warning: the store's Z_MODELCACHE could not be used (the model cache is not raw DEFLATE data: "
        func expectOneWarning(_ result: GraphStoreBinary.Result, _ what: String) {
            #expect(result.status == 0, "\(what): \(result.stderr)")
            #expect(result.stderr.components(separatedBy: warning).count == 2, "\(what): \(result.stderr)")
            #expect(result.stderr.contains("its model was inferred from the schema instead\n"), "\(what): \(result.stderr)")
        }
        expectOneWarning(try GraphStoreBinary.run([store, ".print one", ".print two"]), "commands")
        expectOneWarning(try GraphStoreBinary.run([store], input: ".print one\n.entities\n"), "a script on standard input")
        expectOneWarning(try GraphStoreBinary.run([], input: ".open \(store)\n.print one\n"), ".open in a script")
        // The bundled example has no Z_MODELCACHE table at all: nothing to warn about.
        #expect(try GraphStoreBinary.run([GraphStoreBinary.exampleStore, ".print one"]).stderr == "")

        let home = try temporaryDirectory()
        let terminal = try PseudoTerminal(arguments: [store], environment: ["HOME": home, "TERM": "xterm", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1"])
        #expect(terminal.waitFor { $0.currentLine == TerminalTests.prompt })
        terminal.type(".print alive\r")
        #expect(terminal.waitFor { $0.text.contains("alive") && $0.currentLine == TerminalTests.prompt })
        #expect(terminal.screen.text.filter { $0.hasPrefix("graphstore: warning: the store's Z_MODELCACHE could not be used") }.count == 1, "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    // MARK: - Support

    /// A tmpfs of 16 KiB mounted at `directory`; false (saying why) where mounting is not
    /// allowed.
    private static func mountTinyFileSystem(at directory: String) -> Bool {
        let status = runTool("mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", directory])
        if status != 0 { print("skipped aFullTemporaryDirectoryIsADiskFullError: cannot mount a tmpfs here (mount exit status \(status.map(String.init) ?? "none"))") }
        return status == 0
    }

    private static func unmount(_ directory: String) {
        _ = runTool("umount", [directory])
    }

    /// How to run graphstore as a user that permissions apply to: as is, unless the tests
    /// run as root (who may read anything), then through `setpriv` as `nobody`; nil (saying
    /// why) when that cannot be done.
    private static func unprivileged() -> [String]? {
        guard getuid() == 0 else { return [] }
        guard let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            print("skipped permissionDeniedForReadingAndForWriting: running as root and setpriv is not installed")
            return nil
        }
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    }

    private static func runTool(_ name: String, _ arguments: [String]) -> Int32? {
        guard let tool = ["/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/"].map({ $0 + name }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
