/// Where the json and jsonl modes put a result's row objects when a run writes one JSON
/// document (``JSONDocument``) rather than an array or lines per result.
protocol JSONRowDestination: AnyObject {
    /// A result starts (at its first row, or at its end when it has none).
    func beginRows()
    /// One row, a JSON object.
    func row(_ object: String)
    /// The result ends.
    func endRows()
}

/// `--json-document`: everything a run writes on standard output as one JSON document, so
/// that a script of several commands gives a parser one text to read, not arrays glued
/// together.
///
/// In json mode the document is an array with an entry per command, in the order they
/// ran: its text (`command`), the rows of its result (`rows`), anything else it wrote
/// (`text`: messages, and results in a mode that is not JSON), and why it failed (`error`,
/// also said on standard error as always). A command run by a `.read` script is an entry
/// of its own, after the `.read`'s.
///
/// ```json
/// [
/// {"command":"count Book","rows":[
/// {"count":3}
/// ]},
/// {"command":".print done","text":"done\n"},
/// {"command":"fetch Nope","error":"no entity named Nope; entities: Book, BookCategory, Page"}
/// ]
/// ```
///
/// In jsonl mode each line is one of those, tagged with its command: a row
/// (`{"command":"count Book","row":{"count":3}}`), a command's text, or its error; a
/// command that wrote nothing has no line.
///
/// Rows stream as they come; only a command's text is held until the command ends.
final class JSONDocument: JSONRowDestination {
    /// The document's shape.
    enum Format {
        /// One array of entries (json mode).
        case array
        /// One tagged object per line (jsonl mode).
        case lines
    }

    private let format: Format
    private let write: (String) -> Void
    /// The running commands' texts as JSON strings, innermost last (`.read` runs others).
    private var commands: [String] = []
    /// Entries written so far (array).
    private var entries = 0
    /// Whether an entry is open (array): its `{"command":…` written, its `}` not yet.
    private var entryIsOpen = false
    /// Whether the open entry has its rows already: a second result starts a new entry.
    private var entryHasRows = false
    private var rowsAreOpen = false
    private var rowCount = 0
    /// What the running command wrote that is not rows.
    private var text = ""

    /// A document written, piece by piece, to `write`.
    init(format: Format, write: @escaping (String) -> Void) {
        self.format = format
        self.write = write
    }

    /// The JSON of the command running now; `null` for output outside any command.
    private var command: String { commands.last ?? "null" }

    /// A command starts: its entry opens (array), after what the command that ran it had
    /// written so far.
    func beginCommand(_ text: String) {
        endSegment()
        commands.append(JSONText.string(text))
        if format == .array { openEntry() }
    }

    /// The running command ends, failed with `error` if it did.
    func endCommand(error: String?) {
        if let error {
            switch format {
            case .array:
                if !entryIsOpen { openEntry() }
                endSegment(error: error)
            case .lines:
                endSegment()
                write("{\"command\":\(command),\"error\":\(JSONText.string(error))}\n")
            }
        } else {
            endSegment()
        }
        commands.removeLast()
    }

    /// Text a command wrote that is not rows of a JSON result.
    func add(text: String) {
        self.text += text
    }

    func beginRows() {
        switch format {
        case .array:
            if entryHasRows { endSegment() }
            if !entryIsOpen { openEntry() }
            write(",\"rows\":[")
            rowsAreOpen = true
            entryHasRows = true
            rowCount = 0
        case .lines:
            writeLinesText()
        }
    }

    func row(_ object: String) {
        switch format {
        case .array: write((rowCount == 0 ? "\n" : ",\n") + object)
        case .lines: write("{\"command\":\(command),\"row\":\(object)}\n")
        }
        rowCount += 1
    }

    func endRows() {
        guard rowsAreOpen else { return }
        write(rowCount == 0 ? "]" : "\n]")
        rowsAreOpen = false
    }

    /// Ends the document: the open entry closes, and the array.
    func finish() {
        endSegment()
        guard format == .array else { return }
        write(entries == 0 ? "[]\n" : "\n]\n")
    }

    // MARK: - Entries

    private func openEntry() {
        write((entries == 0 ? "[\n" : ",\n") + "{\"command\":" + command)
        entries += 1
        entryIsOpen = true
        entryHasRows = false
    }

    /// Closes what is open of the running command's output: a result cut short by an error,
    /// its text, its entry (array).
    private func endSegment(error: String? = nil) {
        endRows()
        switch format {
        case .array:
            if !text.isEmpty, !entryIsOpen { openEntry() }
            guard entryIsOpen else { return }
            if !text.isEmpty { write(",\"text\":" + JSONText.string(text)) }
            if let error { write(",\"error\":" + JSONText.string(error)) }
            write("}")
            text = ""
            entryIsOpen = false
        case .lines:
            writeLinesText()
        }
    }

    /// The held text as a line of its own (jsonl).
    private func writeLinesText() {
        guard !text.isEmpty else { return }
        write("{\"command\":\(command),\"text\":\(JSONText.string(text))}\n")
        text = ""
    }
}

extension Shell {
    /// Makes what the shell writes from now on one JSON document (`--json-document`), in
    /// `format`: results of the json and jsonl modes as rows of their command's entry,
    /// anything else as its text. `finishJSONDocument()` ends it.
    public func startJSONDocument(lines: Bool) {
        let document = JSONDocument(format: lines ? .lines : .array, write: output)
        state.document = document
        output = { document.add(text: $0) }
    }

    /// Ends the JSON document, if one was started: what is open closes, and the array.
    public func finishJSONDocument() {
        state.document?.finish()
        state.document = nil
    }
}
