import Foundation

/// Checks on a store file made before SQLite sees it, and the private copy used to read a
/// write-ahead log without touching the original files.
enum StoreFile {
    /// The 16-byte header every SQLite 3 database starts with.
    static let header = Array("SQLite format 3\0".utf8)

    /// Fails unless `path` is an SQLite database file of plausible size.
    ///
    /// Plain `stat` and `read`: this runs on every open, and `graphstore STORE .entities`
    /// should start as fast as `sqlite3` (FileManager's first use costs milliseconds).
    static func check(_ path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .fileNotFound(path: path) }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw .notADatabase(path: path, reason: "it is a directory") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .notADatabase(path: path, reason: "the file cannot be read") }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < head.count {
            let n = head.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(fd, base + count, 100 - count)
            }
            if n > 0 {
                count += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        guard count > 0 else { throw .notADatabase(path: path, reason: "the file is empty") }
        guard count >= 100, head.prefix(16).elementsEqual(header) else {
            throw .notADatabase(path: path, reason: "no SQLite header")
        }
        let size = Int(status.st_size)
        let pageSize = Int(head[16]) << 8 | Int(head[17])
        let pages = Int(head[28]) << 24 | Int(head[29]) << 16 | Int(head[30]) << 8 | Int(head[31])
        let realPageSize = pageSize == 1 ? 65536 : pageSize
        if pages > 0, realPageSize > 0, size < pages * realPageSize, !hasLog(path) {
            throw .notADatabase(
                path: path, reason: "truncated: the header promises \(pages * realPageSize) bytes, the file has \(size)")
        }
    }

    /// Whether a non-empty write-ahead log or rollback journal sits beside the store.
    static func hasLog(_ path: String) -> Bool {
        ["-wal", "-journal"].contains { suffix in
            var status = stat()
            return stat(path + suffix, &status) == 0 && status.st_size > 0
        }
    }

    /// The URI that opens a store for reading without writing any byte: `immutable=1`
    /// when there is no log to replay (SQLite then takes no locks and creates no `-shm`).
    static func immutableURI(_ path: String) -> String {
        // Percent-encoding by hand: URL path characters stay, `?`, `#` and `%` do not.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        var encoded = ""
        encoded.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "file:\(encoded)?mode=ro&immutable=1"
    }

    /// Copies the store and its log into a fresh private directory, so SQLite can replay
    /// the log there. The original files are only read.
    static func privateCopy(of path: String) throws(StoreError) -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("graphstore-\(UUID().uuidString)", isDirectory: true)
        let copy = directory.appendingPathComponent((path as NSString).lastPathComponent).path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            PrivateCopies.inUse.add(directory.path)
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            PrivateCopies.inUse.remove(directory.path)
            throw .notADatabase(path: path, reason: "could not make a private copy to read its log: \(error)")
        }
        return copy
    }

    /// Removes a private copy and its directory.
    static func removePrivateCopy(_ copy: String) {
        PrivateCopies.inUse.remove((copy as NSString).deletingLastPathComponent)
    }
}

extension String {
    /// The string with zeros in front, `width` characters in all.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
