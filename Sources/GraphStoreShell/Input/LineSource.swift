import Foundation

/// Where command lines come from: a terminal, a pipe, a file, or `-c`.
public protocol LineSource: AnyObject {
    /// The next line without its newline, or nil at the end. `prompt` is shown only by
    /// interactive sources.
    func nextLine(prompt: String) -> String?
    /// A name for messages (`stdin`, the script's path).
    var name: String { get }
    /// Whether a person is typing (prompts, history, no bail by default).
    var isInteractive: Bool { get }
}

/// Lines from a file handle or a list of strings, with no prompt.
public final class TextLineSource: LineSource {
    public let name: String
    public let isInteractive = false
    private var lines: [String]
    private var position = 0
    private let handle: FileHandle?

    /// Lines read lazily from a file handle (standard input).
    public init(handle: FileHandle, name: String) {
        self.handle = handle
        self.name = name
        self.lines = []
    }

    /// Lines from text already in memory (a script file, `-c` commands).
    public init(lines: [String], name: String) {
        self.handle = nil
        self.name = name
        self.lines = lines
    }

    public func nextLine(prompt: String) -> String? {
        if handle != nil { return Swift.readLine(strippingNewline: true) }
        guard position < lines.count else { return nil }
        defer { position += 1 }
        return lines[position]
    }
}
