import Foundation

/// Reads lines from a file descriptor through a buffer: `\n` or `\r\n` endings, a UTF-8
/// byte-order mark at the start skipped, invalid UTF-8 replaced rather than fatal.
///
/// It never holds more than one line's limit (`InputLimits.lineBytes`) of a line, so input
/// without line ends fails at once rather than filling memory. It waits for input with
/// `poll`, together with the pipe Ctrl-C writes to in an interactive session, so that
/// Ctrl-C ends a wait on a FIFO nobody writes to (the wait ends as `interrupted`).
final class FileLineReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line end resumes: bytes before it hold none.
    private var searched = 0
    private var atEnd = false
    private var isFirstLine = true
    /// Whether to close the descriptor at the end (script files, not standard input).
    var closesOnEnd = false
    private static let chunk = 1 << 16

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit {
        if closesOnEnd, !atEnd { close(fileDescriptor) }
    }

    /// The next line, the end of the input, or why the input cannot be read on (after
    /// which it ends).
    func nextLine() -> LineInput {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                guard end - start <= InputLimits.lineBytes else { return fail(InputLimits.lineTooLong) }
                let line = decode(buffer[start..<end])
                start = newline + 1
                searched = start
                return .line(line)
            }
            searched = buffer.count
            guard buffer.count - start <= InputLimits.lineBytes else { return fail(InputLimits.lineTooLong) }
            if atEnd {
                guard start < buffer.count else { return .end }
                // The last line has no newline.
                let line = decode(buffer[start...])
                start = buffer.count
                searched = start
                return .line(line)
            }
            if let failure = fill() { return failure }
        }
    }

    private func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        if isFirstLine {
            isFirstLine = false
            if bytes.starts(with: [0xef, 0xbb, 0xbf]) { bytes = bytes.dropFirst(3) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads the next chunk once input is there; `.failed` when Ctrl-C came first or the
    /// read failed.
    private func fill() -> LineInput? {
        if start > 0 {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunk)
        while true {
            if !waitForInput() { return fail("interrupted") }
            let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return nil
            }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            if n < 0 { return fail("cannot read on: \(String(cString: strerror(errno)))") }
            finish()
            return nil
        }
    }

    /// Waits until the descriptor has input (or its end, or an error); false when Ctrl-C
    /// was pressed first.
    private func waitForInput() -> Bool {
        var waits = [
            pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: Interrupts.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if Interrupts.isPending { return false }
            let ready = poll(&waits, Interrupts.wakeDescriptor >= 0 ? 2 : 1, -1)
            if Interrupts.isPending || (ready > 0 && waits[1].revents != 0) { return false }
            if ready > 0 || errno != EINTR { return true }
        }
    }

    /// Ends the input after a failure: later reads give its end.
    private func fail(_ message: String) -> LineInput {
        buffer = []
        start = 0
        searched = 0
        finish()
        return .failed(message)
    }

    private func finish() {
        guard !atEnd else { return }
        atEnd = true
        if closesOnEnd { close(fileDescriptor) }
    }
}
