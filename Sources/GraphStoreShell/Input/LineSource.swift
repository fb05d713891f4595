import Foundation

/// What reading one line gave.
public enum LineInput: Sendable, Equatable {
    /// A line, without its line ending.
    case line(String)
    /// The user pressed Ctrl-C: drop what was typed.
    case cancelled
    /// The end of the input (Ctrl-D at a terminal).
    case end
    /// The input cannot be read on: a read failed, a line is past `InputLimits`, or Ctrl-C
    /// ended a wait for a script's next line. The message says which; the input ends here.
    case failed(String)
}

/// Where command lines come from: a terminal, a pipe, a script file, or `-c`.
public protocol LineSource: AnyObject {
    /// Reads the next line; `prompt` is shown only by interactive sources.
    func read(prompt: String) -> LineInput
    /// A name for messages (`stdin`, `-c`, the script's path).
    var name: String { get }
    /// Whether a person is typing (prompts, history, errors do not end the session).
    var isInteractive: Bool { get }
    /// Asks a question and returns the line typed in answer: "" for Ctrl-C (no answer),
    /// nil for Ctrl-D. Sources nobody types at answer nil.
    func ask(_ question: String) -> String?
    /// Whether the line last read ends a statement, whatever it holds after it (unless a
    /// quote, a bracket or a backslash carries it on): the last line of one `-c` command.
    var lastLineEndsStatement: Bool { get }
    /// How messages name a line: `NAME:LINE` (`script.gs:12`, `-c:1`).
    func place(ofLine line: Int) -> String
    /// Keeps a complete statement in the history (interactive sources).
    func remember(_ statement: String)
    /// Called when the session ends: interactive sources write their history.
    func finish()
}

extension LineSource {
    public func ask(_ question: String) -> String? { nil }
    public var lastLineEndsStatement: Bool { false }
    public func place(ofLine line: Int) -> String { "\(name):\(line)" }
    public func remember(_ statement: String) {}
    public func finish() {}
}

/// Lines from a file descriptor (standard input, a script file) or from strings (`-c`),
/// with no prompt.
public final class TextLineSource: LineSource {
    public let name: String
    public let isInteractive = false
    private var lines: [String]
    private var position = 0
    /// The positions of the lines that end one of the texts given (`-c` commands).
    private var textEnds: Set<Int> = []
    /// Whether messages name lines by number (see ``init(lines:name:numbered:)``).
    private var numbered = true
    /// Whether the line last read is the last of one of the texts given (a `-c` command).
    public private(set) var lastLineEndsStatement = false
    private let reader: FileLineReader?

    /// Lines read as they are needed from a file descriptor (standard input), so that a
    /// pipe is run while it is still being written.
    public init(fileDescriptor: Int32, name: String) {
        self.reader = FileLineReader(fileDescriptor: fileDescriptor)
        self.name = name
        self.lines = []
    }

    /// Lines read from a script file, named `name` in messages (the path as typed); the
    /// error says why the file cannot be read.
    ///
    /// A FIFO (`-f <(…)`), `/dev/stdin` or a device is read as a file is. Opening does not
    /// wait for a FIFO's writer (the reader waits instead, where Ctrl-C can end the wait).
    public convenience init(path: String, name: String? = nil) throws(ShellError) {
        let name = name ?? path
        let expanded = (path as NSString).expandingTildeInPath
        let fd = open(expanded, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ShellError("cannot read \(name): \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ShellError("cannot read \(name): it is a directory")
        }
        // Reads block again: the reader polls before each one.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.init(fileDescriptor: fd, name: name)
        reader?.closesOnEnd = true
    }

    /// Lines from text already in memory (`-c` commands); each string may hold several
    /// lines, and ends the statement of its last line (see ``lastLineEndsStatement``).
    ///
    /// With `numbered` false, messages name the commands rather than lines (commands typed
    /// after the store, which are no file): `graphstore` for a single one, `graphstore:
    /// command 2` for the second of several.
    public init(lines: [String], name: String, numbered: Bool = true) {
        self.reader = nil
        self.name = name
        self.numbered = numbered
        self.lines = []
        for text in lines {
            self.lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            textEnds.insert(self.lines.count - 1)
        }
    }

    /// `-c:3`; for commands given after the store, `graphstore` or `graphstore: command 2`.
    public func place(ofLine line: Int) -> String {
        guard !numbered else { return "\(name):\(line)" }
        guard textEnds.count > 1 else { return name }
        return "\(name): command \(textEnds.filter { $0 < line - 1 }.count + 1)"
    }

    public func read(prompt: String) -> LineInput {
        if let reader { return reader.nextLine() }
        guard position < lines.count else { return .end }
        defer { position += 1 }
        lastLineEndsStatement = textEnds.contains(position)
        return .line(lines[position])
    }
}
