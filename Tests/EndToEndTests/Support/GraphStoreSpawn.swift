import Foundation

/// Starts the built `graphstore` with `posix_spawn` (not `fork`: the test process has
/// threads), with every signal unblocked and at its default action — the test runner's
/// threads block signals, and a spawned child inherits the mask, so Ctrl-C or a `kill`
/// would never arrive — and with none of the runner's descriptors open but the ones
/// `arrange` sets up (a pipe of another test's process left open in the child would keep
/// that test waiting for its end).
enum GraphStoreSpawn {
    /// Held while a test makes descriptors that are not yet close-on-exec, and while a
    /// child is started: no child inherits another test's pipe in between.
    static let descriptors = NSLock()

    static func start(
        arguments: [String], environment: [String: String], flags: Int16 = 0,
        arrange: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        let signals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH]
        for signal in signals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        arrange(&actions)
        descriptors.lock()
        defer { descriptors.unlock() }
        // (Closing a descriptor that is gone by then is not an error for posix_spawn.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }

        let executable = GraphStoreBinary.path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TerminalError("posix_spawn \(executable): \(String(cString: strerror(rc)))") }
        return child
    }

    /// Ends a child that is still running and reaps it.
    static func kill(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Writes all of `text` to a descriptor (a terminal's master side, a pipe).
    static func write(_ text: String, to descriptor: Int32) {
        var data = Array(text.utf8)[...]
        while !data.isEmpty {
            let n = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if n > 0 { data = data.dropFirst(n) } else if errno != EINTR { return }
        }
    }
}
