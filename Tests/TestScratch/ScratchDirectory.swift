import Foundation

/// Fresh directories for tests, all inside one directory per test process that is removed
/// when the process exits: a test run leaves nothing behind in the temporary directory.
///
/// ```swift
/// let folder = try ScratchDirectory.make("graphstore-shell")
/// ```
public enum ScratchDirectory {
    /// This process's directory, `graphstore-test-run-<pid>` in the temporary directory.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-test-run-\(getpid())")
        // A crashed run with the same process ID may have left one behind.
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchDirectory.root) }
        return url
    }()

    /// A new empty directory whose name starts with `prefix`.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path for a new file whose name starts with `prefix` (the file is not created).
    public static func path(_ prefix: String, extension ext: String) -> String {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString).\(ext)").path
    }
}
