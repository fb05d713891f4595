import Foundation
import Synchronization

/// Removes the private copies (see ``PrivateCopies``) when a signal ends the process:
/// `SIGHUP`, `SIGINT`, `SIGQUIT`, `SIGTERM` or `SIGPIPE`, which `atexit` never sees.
///
/// This is the private copies' only unsafe code. A signal handler may only do
/// async-signal-safe work, so everything it needs is made beforehand. The invariants:
///
/// 1. `slots` is a fixed table of atomic words, made before any handler is installed and
///    never freed. A word is 0, or the address of a block of C strings made with the
///    copy: the files to unlink, then the folder to remove, then an empty string.
/// 2. Whoever swaps a non-zero address out of a slot owns that block. `forget` frees it
///    (the copy was removed the ordinary way); the handler uses it and never frees it
///    (the process is ending). So neither reads a block the other may have freed.
/// 3. The handler reads only the table and its blocks and calls only `unlink`, `rmdir`
///    and `raise`, all async-signal-safe (POSIX). It is installed with
///    `SA_RESETHAND | SA_NODEFER`, so the signal it raises again at its end takes the
///    default action: the process ends as it would have without GraphStore.
/// 4. A handler is installed only for a signal whose action is the default one: a
///    program's own handler (the shell's Ctrl-C, which interrupts a command and not the
///    process) and an ignored signal (`nohup`) are left as they are.
///
/// A copy made when all slots are taken is still removed at exit or when its store is
/// released, just not on a signal.
enum PrivateCopySignals {
    private static let capacity = 64
    private static let signals = [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE]
    private static let installed = Atomic<Bool>(false)
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let slots = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for i in 0..<capacity { (slots + i).initialize(to: Atomic(0)) }
        return slots
    }()

    /// Records paths for the handler to remove (the last one with `rmdir`, the others with
    /// `unlink`); returns the slot to ``forget(_:)`` afterwards, or nil when the table is full.
    static func register(_ paths: [String]) -> Int? {
        installHandlers()
        var bytes: [CChar] = []
        for path in paths { bytes += path.utf8CString }
        bytes.append(0)
        let block = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        block.initialize(from: bytes, count: bytes.count)
        let address = Int(bitPattern: block)
        for slot in 0..<capacity where slots[slot].compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged {
            return slot
        }
        block.deallocate()
        return nil
    }

    /// Takes a slot's paths back (their files were removed the ordinary way).
    static func forget(_ slot: Int) {
        let address = slots[slot].exchange(0, ordering: .acquiringAndReleasing)
        UnsafeMutablePointer<CChar>(bitPattern: address)?.deallocate()
    }

    private static func installHandlers() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = slots  // made before any handler can run (invariant 1)
        for signal in signals {
            var current = sigaction()
            guard sigaction(signal, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { PrivateCopySignals.handle($0) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(signal, &action, nil)
        }
    }

    /// The handler: async-signal-safe work only (invariant 3).
    private static func handle(_ signal: Int32) {
        for slot in 0..<capacity {
            guard let block = UnsafePointer<CChar>(bitPattern: slots[slot].exchange(0, ordering: .acquiringAndReleasing)) else {
                continue
            }
            var path = block
            while path.pointee != 0 {
                var end = path
                while end.pointee != 0 { end += 1 }
                let next = end + 1
                if next.pointee == 0 { rmdir(path) } else { unlink(path) }
                path = next
            }
        }
        raise(signal)
    }
}
