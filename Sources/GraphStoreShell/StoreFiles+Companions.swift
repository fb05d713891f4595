import Foundation

/// What lies on disk around a store: its journal mode as the file's header says it, and
/// the `-wal`, `-shm` and `-journal` beside it (`.metadata` shows them, so that a store
/// copied without its `-wal` is easy to spot).
extension StoreFiles {
    /// The journal mode the header's bytes 18 and 19 (write and read format versions) give:
    /// 1 is a rollback journal, 2 write-ahead logging.
    enum JournalMode: Equatable, CustomStringConvertible {
        case rollback
        case writeAheadLog
        case other(UInt8, UInt8)

        var description: String {
            switch self {
            case .rollback: "rollback journal (header bytes 18-19: 1, 1)"
            case .writeAheadLog: "WAL, write-ahead log (header bytes 18-19: 2, 2)"
            case .other(let write, let read): "unknown (header bytes 18-19: \(write), \(read))"
            }
        }
    }

    /// The journal mode in the store's header, nil when it cannot be read.
    var journalMode: JournalMode? {
        let descriptor = open(resolvedPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = [0, 0]
        guard pread(descriptor, &bytes, 2, 18) == 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (1, 1): return .rollback
        case (2, 2): return .writeAheadLog
        default: return .other(bytes[0], bytes[1])
        }
    }

    /// The size of the companion file of `role` beside the store, nil when there is none.
    func size(of role: Role) -> Int64? {
        var status = stat()
        guard stat(resolvedPath + role.suffix, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }
}
