import Foundation

/// The built `graphstore` running with pipes for its standard input and output, to be
/// fed a line at a time and signalled mid-run (started by ``GraphStoreSpawn``). Reads
/// wait with `poll` up to a deadline that only bounds a failing test.
final class SpawnedProcess {
    let pid: pid_t
    private let input: Int32
    /// Standard output's reading end; -1 once the test closed it (``closeStandardOutput()``).
    private var output: Int32
    private let errors: Int32
    /// Everything read from standard output and standard error so far.
    private(set) var stdout = ""
    private(set) var stderr = ""
    private var status: Int32?

    init(arguments: [String], environment: [String: String]) throws {
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        // Made and marked close-on-exec while no other test starts a child (see
        // `GraphStoreSpawn.descriptors`): a child started in between would keep an end open,
        // and this test would wait for an end of output, or a closed pipe, that never comes.
        let made = GraphStoreSpawn.descriptors.withLock {
            guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else { return false }
            for fd in stdinPipe + stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard made else { throw TerminalError("pipe failed: \(String(cString: strerror(errno)))") }
        let child: pid_t
        do {
            child = try GraphStoreSpawn.start(arguments: arguments, environment: environment) { actions in
                posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
                posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
                posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
            }
        } catch {
            (stdinPipe + stdoutPipe + stderrPipe).forEach { close($0) }
            throw error
        }
        close(stdinPipe[0])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        input = stdinPipe[1]
        output = stdoutPipe[0]
        errors = stderrPipe[0]
        pid = child
    }

    deinit {
        if status == nil { GraphStoreSpawn.kill(pid) }
        close(input)
        if output >= 0 { close(output) }
        close(errors)
    }

    /// Closes the reading end of the program's standard output, as `| head -1` does once it
    /// has read enough: the program's next write to it fails.
    func closeStandardOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    /// Writes text to the program's standard input.
    func send(_ text: String) {
        GraphStoreSpawn.write(text, to: input)
    }

    /// Reads standard output until it holds `text`; false if it ended or the deadline
    /// passed first.
    func waitFor(output text: String) -> Bool {
        let deadline = Date().addingTimeInterval(PseudoTerminal.patience)
        while !stdout.contains(text) {
            guard deadline.timeIntervalSinceNow > 0, readSome() else { return stdout.contains(text) }
        }
        return true
    }

    /// Waits for the program to end: the signal that ended it, or nil when it exited
    /// (then `exitStatus` is set) or did not end by the deadline (then it is killed, and
    /// `exitStatus` stays nil: a test expecting an ending fails rather than hangs).
    func waitForSignal() -> Int32? {
        var raw: Int32 = 0
        let patience = Date().addingTimeInterval(PseudoTerminal.patience)
        while true {
            let ended = waitpid(pid, &raw, WNOHANG)
            if ended == pid { break }
            if ended < 0, errno != EINTR { return nil }
            guard patience.timeIntervalSinceNow > 0 else {
                GraphStoreSpawn.kill(pid)
                status = -1
                return nil
            }
            // Drains its output meanwhile (a full pipe would stop it); waits up to a second.
            if !readSome() { usleep(10_000) }
        }
        status = raw
        let deadline = Date().addingTimeInterval(PseudoTerminal.patience)
        while deadline.timeIntervalSinceNow > 0, readSome() {}
        return (raw & 0x7f) != 0 ? raw & 0x7f : nil
    }

    /// The exit status, once the program has exited normally.
    var exitStatus: Int32? { status.flatMap { $0 >= 0 && ($0 & 0x7f) == 0 ? ($0 >> 8) & 0xff : nil } }

    /// One read of whatever is ready on standard output or error; false once both ended.
    private func readSome() -> Bool {
        // poll passes over a negative descriptor (a closed standard output): it counts as ended.
        var pollers = [pollfd(fd: output, events: Int16(POLLIN), revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&pollers, 2, 1000)
        if ready == 0 { return true }
        if ready < 0 { return errno == EINTR }
        var open = false
        for (i, poller) in pollers.enumerated() where poller.revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let n = buffer.withUnsafeMutableBytes { read(poller.fd, $0.baseAddress, $0.count) }
            guard n > 0 else { continue }
            open = true
            let text = String(decoding: buffer[0..<n], as: UTF8.self)
            if i == 0 { stdout += text } else { stderr += text }
        }
        return open || pollers.contains { $0.fd >= 0 && $0.revents == 0 }
    }
}
