import Foundation

/// Buffered writes to a file descriptor: standard output, or a file opened by `.output`
/// or `.once`.
///
/// Each row is a small string; one `write(2)` per row would make a million-row result
/// crawl, so text is gathered up to `capacity` bytes. `flush()` runs before every prompt
/// and message, which keeps results and diagnostics in order on a terminal.
public final class FileOutput {
    private let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The path written to, for messages (nil for standard output).
    public let path: String?
    /// Set when a write failed (a full disk, a closed pipe); later writes are dropped.
    public private(set) var failure: String?

    /// Writes to standard output.
    public static func standardOutput() -> FileOutput { FileOutput(fileDescriptor: STDOUT_FILENO, owns: false, path: nil) }

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

    /// Adds text; writes the buffer out when it is full.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out everything buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
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
                    failure = String(cString: strerror(errno))
                    return
                }
            }
        }
    }
}
