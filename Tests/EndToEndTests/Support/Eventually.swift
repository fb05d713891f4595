import Foundation

/// Waits for something another process brings about (it opened a FIFO, it is blocked
/// reading one), checking every 10 ms; false if `patience` seconds pass first. The
/// patience only bounds a failing test: nothing is timed.
func eventually(patience: Double = PseudoTerminal.patience, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(patience)
    while !condition() {
        guard deadline.timeIntervalSinceNow > 0 else { return false }
        usleep(10_000)
    }
    return true
}

/// Whether process `pid` has `path` open (one of its descriptors leads there).
func process(_ pid: pid_t, hasOpen path: String) -> Bool {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
}

/// Opens a FIFO's writing end once a reader has it open (until then there is none to open
/// without blocking); -1 if no reader came.
func openWritingEnd(of fifo: String) -> Int32 {
    var descriptor: Int32 = -1
    _ = eventually {
        descriptor = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        return descriptor >= 0
    }
    return descriptor
}
