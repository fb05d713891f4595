import Foundation

/// Buffered writes to a file descriptor: standard output, or a file opened by `.output`
/// or `.once`.
///
/// Each row is a small string; one `write(2)` per row would make a million-row result
/// crawl, so text is gathered up to `capacity` bytes. `flush()` runs before every prompt
/// and message, which keeps results and diagnostics in order on a terminal.
///
/// A write that fails (a full disk, a closed pipe) is not retried: later text is dropped,
/// and ``flushReportingLoss()`` says so once for each command that lost text, so that the
/// command fails rather than the text silently going missing.
public final class FileOutput {
    private let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The path written to, for messages (nil for standard output).
    public let path: String?
    /// `errno` of the write that failed, 0 while none has; later writes are dropped.
    public private(set) var failureCode: Int32 = 0
    /// Whether text was dropped since the last ``flushReportingLoss()``.
    private var hasLostText = false

    /// Why a write failed (a full disk, a closed pipe), nil while none has.
    public var failure: String? { failureCode == 0 ? nil : String(cString: strerror(failureCode)) }

    /// Whether a write failed because nothing reads the pipe any more (`| head -1`).
    public var isClosedPipe: Bool { failureCode == EPIPE }

    /// Writes to standard output.
    public static func standardOutput() -> FileOutput { FileOutput(fileDescriptor: STDOUT_FILENO, owns: false, path: nil) }

    /// Writes to the writing end of a pipe (a pager's input), closed when released.
    static func pipe(_ fileDescriptor: Int32, name: String) -> FileOutput {
        FileOutput(fileDescriptor: fileDescriptor, owns: true, path: name)
    }

    /// Creates (or truncates) the file at `path`; messages name it `shownAs` (the path as typed).
    public convenience init(creating path: String, shownAs name: String? = nil) throws(ShellError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ShellError("cannot write \(name ?? path): \(String(cString: strerror(errno)))") }
        self.init(fileDescriptor: fd, owns: true, path: name ?? path)
    }

    private init(fileDescriptor: Int32, owns: Bool, path: String?, capacity: Int = 1 << 16) {
        self.fileDescriptor = fileDescriptor
        self.ownsDescriptor = owns
        self.path = path
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    deinit {
        flush()
        if ownsDescriptor { close(fileDescriptor) }
    }

    /// Refuses, with the reason `open` would give, a file that cannot be created or written:
    /// a missing or read-only directory, a directory, a read-only file. Nothing is created.
    static func checkCanCreate(_ path: String, shownAs name: String) throws(ShellError) {
        var status = stat()
        if stat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { throw ShellError("cannot write \(name): it is a directory") }
            if access(path, W_OK) != 0 { throw ShellError("cannot write \(name): \(String(cString: strerror(errno)))") }
        } else {
            let directory = (path as NSString).deletingLastPathComponent
            if access(directory.isEmpty ? "." : directory, W_OK | X_OK) != 0 {
                throw ShellError("cannot write \(name): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Adds text; writes the buffer out when it is full.
    public func write(_ text: String) {
        guard failureCode == 0 else {
            hasLostText = true
            return
        }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out everything buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failureCode == 0 else {
            hasLostText = true
            return
        }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let n = Glibc.write(fileDescriptor, base + offset, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0, errno == EINTR {
                    // A signal (Ctrl-C, a resize) interrupted the write: carry on.
                    continue
                } else {
                    failureCode = n < 0 ? errno : EIO
                    hasLostText = true
                    return
                }
            }
        }
    }

    /// Writes out everything buffered; returns why text was lost since the last call, if
    /// some was, so that the command that wrote it fails.
    public func flushReportingLoss() -> String? {
        flush()
        guard hasLostText else { return nil }
        hasLostText = false
        return failure
    }
}
