import Foundation

/// Checks on a store file made before SQLite sees it, and the private copy used to read a
/// write-ahead log without touching the original files.
enum StoreFile {
    /// The 16-byte header every SQLite 3 database starts with.
    static let header = Data("SQLite format 3\0".utf8)

    /// Fails unless `path` is an SQLite database file of plausible size.
    static func check(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else { throw .notADatabase(path: path, reason: "it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .notADatabase(path: path, reason: "the file cannot be read")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 100)) ?? Data()
        guard head.count > 0 else { throw .notADatabase(path: path, reason: "the file is empty") }
        guard head.count >= 100, head.prefix(16) == header else {
            throw .notADatabase(path: path, reason: "no SQLite header")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
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
            let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
            return size > 0
        }
    }

    /// The URI that opens a store for reading without writing any byte: `immutable=1`
    /// when there is no log to replay (SQLite then takes no locks and creates no `-shm`).
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
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
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            throw .notADatabase(path: path, reason: "could not make a private copy to read its log: \(error)")
        }
        return copy
    }

    /// Removes a private copy and its directory.
    static func removePrivateCopy(_ copy: String) {
        try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent)
    }
}
