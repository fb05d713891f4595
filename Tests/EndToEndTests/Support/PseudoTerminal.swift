import Foundation

/// The built `graphstore` on a pseudo-terminal of its own: keys go in as bytes, and what it
/// draws is read into a `ScreenModel`. Reads wait with `poll` up to a deadline that only
/// bounds a failing test; nothing is timed.
final class PseudoTerminal {
    private let master: Int32
    let pid: pid_t
    private(set) var screen: ScreenModel
    /// Every byte the program wrote.
    private(set) var bytes: [UInt8] = []
    private var exitStatus: Int32?

    /// How long to wait for something expected before the test fails.
    static let patience: Double = Double(ProcessInfo.processInfo.environment["PTY_PATIENCE"] ?? "60") ?? 60

    /// Starts `graphstore` with `arguments` on a terminal of `columns` × `rows`, in
    /// `directory` if one is given.
    init(arguments: [String], environment: [String: String], columns: Int = 100, rows: Int = 40, directory: String? = nil) throws {
        var master: Int32 = 0
        var slave: Int32 = 0
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        // Made and marked close-on-exec while no other test starts a child (see `GraphStoreSpawn.descriptors`).
        let opened = GraphStoreSpawn.descriptors.withLock {
            guard openpty(&master, &slave, nil, nil, &size) == 0 else { return false }
            _ = fcntl(master, F_SETFD, FD_CLOEXEC)
            _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
            return true
        }
        guard opened, let name = ttyname(slave) else {
            throw TerminalError("openpty failed: \(String(cString: strerror(errno)))")
        }
        let slavePath = String(cString: name)
        self.master = master
        self.screen = ScreenModel(columns: columns, rows: rows)

        // The child starts a new session and then opens the terminal by name, which makes
        // it the controlling terminal, so Ctrl-C reaches the child as SIGINT.
        // (POSIX_SPAWN_SETSID, 0x80 in glibc, is not imported into Swift.)
        let setsid: Int16 = 0x80
        let child: pid_t
        do {
            child = try GraphStoreSpawn.start(arguments: arguments, environment: environment, flags: setsid) { actions in
                if let directory { Self.addChangeOfDirectory(&actions, directory) }
                posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
                posix_spawn_file_actions_adddup2(&actions, 0, 1)
                posix_spawn_file_actions_adddup2(&actions, 0, 2)
            }
        } catch {
            close(slave)
            throw error
        }
        close(slave)
        pid = child
    }

    /// Adds glibc's `posix_spawn_file_actions_addchdir_np` to the actions: it is declared
    /// only for `_GNU_SOURCE`, so Swift does not import it, and it is looked up by name.
    private static func addChangeOfDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) {
        typealias AddChangeOfDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else { return }   // RTLD_DEFAULT
        _ = unsafeBitCast(symbol, to: AddChangeOfDirectory.self)(&actions, directory)
    }

    deinit {
        if exitStatus == nil { GraphStoreSpawn.kill(pid) }
        close(master)
    }

    /// Types text (control characters included: "\t", "\u{3}", "\u{1b}[A").
    func type(_ text: String) {
        GraphStoreSpawn.write(text, to: master)
    }

    /// Reads until `condition` holds for the screen; false if the program ended or the
    /// deadline passed first.
    @discardableResult
    func waitFor(_ condition: (ScreenModel) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Self.patience)
        while !condition(screen) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, readSome(timeout: left) else { return condition(screen) }
        }
        return true
    }

    /// Reads until the screen holds `text` somewhere.
    @discardableResult
    func waitFor(text: String) -> Bool {
        waitFor { $0.text.contains { $0.contains(text) } }
    }

    /// Reads until the text appears `count` times in all.
    @discardableResult
    func waitFor(text: String, count: Int) -> Bool {
        waitFor { screen in screen.text.reduce(0) { $0 + $1.components(separatedBy: text).count - 1 } >= count }
    }

    /// Reads until the program ends; its exit status (or 128 + signal).
    func waitForExit() -> Int32? {
        let deadline = Date().addingTimeInterval(Self.patience)
        while exitStatus == nil {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                break
            }
            if done < 0, errno != EINTR { return nil }
            guard deadline.timeIntervalSinceNow > 0 else { return nil }
            _ = readSome(timeout: 0.05)
        }
        return exitStatus
    }

    /// One read of what is available, waiting up to `timeout`; false at the end of output.
    private func readSome(timeout: Double) -> Bool {
        var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(min(timeout, 1) * 1000))
        if ready == 0 { return true }
        if ready < 0 { return errno == EINTR }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        guard n > 0 else { return false }  // EIO: the program closed the terminal
        bytes += buffer[0..<n]
        screen.feed(Array(buffer[0..<n]))
        return true
    }
}

struct TerminalError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
