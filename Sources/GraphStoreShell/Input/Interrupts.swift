import Foundation
import GraphStore

/// Ctrl-C in an interactive session: it cancels the line being typed (libedit returns
/// from `el_gets`) or stops the command running — SQL through the store's interrupter,
/// result loops through `requested` — and never ends the process.
///
/// The handler only stores a flag and calls `sqlite3_interrupt`, both safe in a signal
/// handler. Scripts keep the default `SIGINT` action: Ctrl-C ends them, as a batch tool should.
enum Interrupts {
    /// Set by the handler; cleared before each command and each line read.
    nonisolated(unsafe) static var requested: sig_atomic_t = 0
    /// The open store's interrupter, while the handler is installed.
    nonisolated(unsafe) private static var target: StoreInterrupter?
    nonisolated(unsafe) private(set) static var isInstalled = false

    /// Installs the handler, without `SA_RESTART` so that a blocked `read` returns `EINTR`.
    static func install() {
        requested = 0
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            Interrupts.requested = 1
            Interrupts.target?.interrupt()
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        isInstalled = true
    }

    /// Points the handler at a newly opened store (before the old one is closed, so that
    /// the handler never sees a closed connection).
    static func watch(_ store: PersistentStore) {
        guard isInstalled else { return }
        target = store.interrupter
    }

    /// Whether Ctrl-C was pressed since `reset()`.
    static var isPending: Bool { requested != 0 }

    /// Forgets an earlier Ctrl-C.
    static func reset() { requested = 0 }
}
