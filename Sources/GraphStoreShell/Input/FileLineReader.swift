import Foundation

/// Reads lines from a file descriptor through a buffer: `\n` or `\r\n` endings, a UTF-8
/// byte-order mark at the start skipped, invalid UTF-8 replaced rather than fatal.
final class FileLineReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var isFirstLine = true
    /// Whether to close the descriptor at the end (script files, not standard input).
    var closesOnEnd = false

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit {
        if closesOnEnd, !atEnd { close(fileDescriptor) }
    }

    /// The next line, or nil at the end of the input.
    func nextLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = decode(buffer[start..<end])
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                // The last line has no newline.
                let line = decode(buffer[start...])
                start = buffer.count
                return line
            }
            fill()
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

    private func fill() {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return
            }
            if n < 0, errno == EINTR { continue }
            atEnd = true
            if closesOnEnd { close(fileDescriptor) }
            return
        }
    }
}
