import Foundation
import GraphStore

/// Ctrl-C in an interactive session: it cancels the line being typed (libedit returns
/// from `el_gets`) or stops the command running — SQL through the store's interrupter,
/// result loops through `requested` — and never ends the process.
///
/// The handler only stores a flag, writes a byte to a pipe and calls `sqlite3_interrupt`,
/// all safe in a signal handler. The pipe is what the line editor waits on beside the
/// terminal: a Ctrl-C that arrives while the editor is busy (not yet blocked in `read`)
/// still ends the wait. Scripts keep the default `SIGINT` action: Ctrl-C ends them, as a
/// batch tool should.
enum Interrupts {
    /// Set by the handler; cleared before each command and each line read.
    nonisolated(unsafe) static var requested: sig_atomic_t = 0
    /// The open store's interrupter, while the handler is installed.
    nonisolated(unsafe) private static var target: StoreInterrupter?
    nonisolated(unsafe) private(set) static var isInstalled = false
    /// The pipe the handler writes to: `wakeDescriptor` is its reading end (-1 without one).
    nonisolated(unsafe) private(set) static var wakeDescriptor: Int32 = -1
    nonisolated(unsafe) private static var wakeWriter: Int32 = -1

    /// Installs the handler, without `SA_RESTART` so that a blocked `read` returns `EINTR`.
    static func install() {
        requested = 0
        var ends: [Int32] = [-1, -1]
        if wakeDescriptor < 0, pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            wakeDescriptor = ends[0]
            wakeWriter = ends[1]
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            Interrupts.requested = 1
            if Interrupts.wakeWriter >= 0 {
                var byte: UInt8 = 1
                _ = write(Interrupts.wakeWriter, &byte, 1)
            }
            Interrupts.target?.interrupt()
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        isInstalled = true
    }

    /// Points the handler at a newly opened store (before the old one is closed, so that
    /// the handler never sees a closed connection).
    static func watch(_ store: any SQLiteReading) {
        guard isInstalled else { return }
        target = store.interrupter
    }

    /// Stops watching a store that is being closed: its connection is about to go.
    static func forgetStore() {
        target = nil
    }

    /// Whether Ctrl-C was pressed since `reset()`.
    static var isPending: Bool { requested != 0 }

    /// Forgets an earlier Ctrl-C.
    static func reset() {
        requested = 0
        drainWakeUps()
    }

    /// Empties the pipe (it is non-blocking).
    private static func drainWakeUps() {
        guard wakeDescriptor >= 0 else { return }
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
