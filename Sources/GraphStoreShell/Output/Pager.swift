import Foundation

/// A result at the prompt that is taller than the terminal goes through a pager (`$PAGER`,
/// by default `less -FRSX`), as psql does: the output is held until it would scroll off the
/// screen, then the pager is started and handed all of it.
///
/// Only a command typed at the prompt, with standard output a terminal, is paged (never a
/// script, never piped output, never `.output`). The pager runs through `/bin/sh -c`, so
/// `$PAGER` may hold arguments. When the reader quits the pager early, the rest of the
/// result is dropped quietly and the command stops.
///
/// ```swift
/// let pager = Pager(command: "less -FRSX", rows: 40, columns: 100, always: false, direct: { write($0) })
/// pager.write(longResult)     // starts less once 40 rows would be filled
/// pager.finish()              // waits until the reader quits it
/// ```
final class Pager {
    private let command: String
    private let rows: Int
    private let columns: Int
    private let always: Bool
    private let direct: (String) -> Void
    private var held: [String] = []
    private var heldRows = 0
    private var pipe: FileOutput?
    private var process: pid_t = 0
    /// Set when the pager could not be started: the rest goes to the terminal.
    private var passesThrough = false

    init(command: String, rows: Int, columns: Int, always: Bool, direct: @escaping (String) -> Void) {
        self.command = command
        self.rows = rows
        self.columns = max(columns, 1)
        self.always = always
        self.direct = direct
    }

    /// The pager program `command` starts, when it can be found (on `PATH`, or by path).
    static func programExists(_ command: String) -> Bool {
        guard let program = command.split(whereSeparator: \.isWhitespace).first.map(String.init) else { return false }
        if program.contains("/") { return access(program, X_OK) == 0 }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
    }

    /// Whether the reader has quit the pager: the rest of the result is not wanted.
    var readerHasQuit: Bool { quit || pipe?.failure != nil }
    private var quit = false

    /// Whether `lines` more lines, each at least a row of the screen, go to the pager: it is
    /// on for every result or already started, or they would not fit with what is held. (A
    /// table is then written whole, not fitted to the terminal's width: the pager scrolls
    /// sideways, as `less -S` does.)
    func willPage(lines: Int) -> Bool {
        guard !passesThrough else { return false }
        return pipe != nil || always || heldRows + lines > rows - 1
    }

    /// Takes a piece of the result: held while it fits the screen, then handed to the pager.
    func write(_ text: String) {
        if let pipe { return pipe.write(text) }
        if passesThrough { return direct(text) }
        held.append(text)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            heldRows += max(1, (DisplayWidth.of(String(line)) + columns - 1) / columns)
        }
        // One row stays free for the prompt that follows.
        if always || heldRows > rows - 1 { start() }
    }

    /// Ends the result: what was held goes to the terminal, or the pager is given the end
    /// of its input and waited for.
    func finish() {
        guard pipe != nil else {
            if !held.isEmpty { direct(held.joined()) }
            held = []
            return
        }
        // Released here, the pipe closes: the pager reads the end of its input.
        pipe?.flush()
        quit = readerHasQuit
        pipe = nil
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0, errno == EINTR {}
    }

    /// Starts the pager on a pipe and hands it what was held; if it cannot be started, the
    /// result goes to the terminal as it is.
    private func start() {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return flushHeldDirectly() }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        // graphstore ignores SIGPIPE; the pager gets the default back.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let words: [String] = ["sh", "-c", "exec " + command]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let rc = posix_spawn(&process, "/bin/sh", &actions, &attributes, argv, environ)
        close(ends[0])
        guard rc == 0 else {
            close(ends[1])
            return flushHeldDirectly()
        }
        let pipe = FileOutput.pipe(ends[1], name: "the pager")
        self.pipe = pipe
        for text in held { pipe.write(text) }
        held = []
    }

    private func flushHeldDirectly() {
        direct(held.joined())
        held = []
        passesThrough = true
    }
}
