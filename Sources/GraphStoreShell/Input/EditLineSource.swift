import CEditLine
import Foundation

/// Lines typed at a terminal, through libedit: emacs keys by default (vi when `~/.editrc`
/// says `bind -v`), history kept in a file, TAB completion, Ctrl-C dropping the line.
///
/// Ctrl-C: libedit's own signal handling puts the terminal back in order and passes the
/// signal on to the handler `Interrupts` installs. libedit reads keys through
/// ``readCharacter(_:_:)``, which waits on the terminal and on the handler's pipe together,
/// so the signal ends the wait even when it came while no `read` was blocked; `el_gets`
/// then returns no line with `EINTR`, which is the cancelled line.
public final class EditLineSource: LineSource {
    public let name = "stdin"
    public let isInteractive = true
    private let editor: OpaquePointer
    private let history: OpaquePointer
    private var event = HistEvent()
    private let historyPath: String?
    private let completer: (String) -> Completion
    /// Where libedit draws the prompt and the line (standard output, or standard error when
    /// results go to a file).
    private let echoDescriptor: Int32
    private var promptText: UnsafeMutablePointer<CChar>?
    private var finished = false
    /// What libedit's callbacks (the prompt, TAB) are handed as client data: a cell of its
    /// own holding the source weakly, allocated with the editor and freed after `el_end`, so
    /// a callback never reaches a source that is gone.
    private let client: UnsafeMutablePointer<EditLineClient>

    /// Starts libedit on the terminal; nil when it cannot.
    ///
    /// - Parameters:
    ///   - historyPath: the history file, read now and written by `finish()`; nil for none.
    ///   - echoToStandardError: draw the prompt and line on standard error.
    ///   - completer: completions for the text before the cursor.
    public init?(
        program: String, historyPath: String?, echoToStandardError: Bool = false,
        completer: @escaping (String) -> Completion = { _ in Completion(word: "", candidates: []) }
    ) {
        guard let editor = graphstore_el_init(program, echoToStandardError ? 1 : 0) else { return nil }
        guard let history = history_init() else {
            el_end(editor)
            return nil
        }
        self.editor = editor
        self.history = history
        self.historyPath = historyPath
        self.completer = completer
        self.echoDescriptor = echoToStandardError ? STDERR_FILENO : STDOUT_FILENO
        self.client = .allocate(capacity: 1)
        client.initialize(to: EditLineClient())
        client.pointee.source = self
        graphstore_history_set_size(history, &event, 1000)
        graphstore_history_unique(history, &event, 1)
        if let historyPath { graphstore_history_load(history, &event, historyPath) }
        graphstore_el_set_history(editor, history)
        graphstore_el_set_editor(editor, "emacs")
        graphstore_el_set_signal(editor, 1)
        graphstore_el_set_getc(editor) { _, character in EditLineSource.readCharacter(character) }
        graphstore_el_set_clientdata(editor, UnsafeMutableRawPointer(client))
        graphstore_el_set_prompt(editor) { editor in
            EditLineClient.source(of: editor)?.promptText
        }
        graphstore_el_add_function(editor, "graphstore-complete", "Complete the word at the cursor") { editor, _ in
            EditLineClient.source(of: editor)?.completeWord() ?? UInt8(CC_ERROR)
        }
        graphstore_el_bind(editor, "^I", "graphstore-complete")
        // ~/.editrc (or $EDITRC) last, so that a user's `bind -v` or own bindings win.
        el_source(editor, nil)
        // `bind -v` starts vi's key maps afresh, Tab included: completion is bound again
        // there (vi has no Tab binding of its own worth keeping at a prompt).
        if let mode = graphstore_el_get_editor(editor), String(cString: mode) == "vi" {
            graphstore_el_bind(editor, "^I", "graphstore-complete")
        }
    }

    /// libedit's character reader: one character from the terminal, decoded from UTF-8;
    /// 0 at end of input; -1 with `EINTR` once Ctrl-C was pressed, however it fell between
    /// two waits (the handler's pipe stays readable until the next line is started).
    static func readCharacter(_ character: UnsafeMutablePointer<wchar_t>?) -> Int32 {
        var scalar: UInt32 = 0
        var needed = 0
        while true {
            var waits = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: Interrupts.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&waits, Interrupts.wakeDescriptor >= 0 ? 2 : 1, -1)
            if Interrupts.isPending || (ready > 0 && waits[1].revents != 0) {
                errno = EINTR
                return -1
            }
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            var byte: UInt8 = 0
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count == 0 { return 0 }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -1
            }
            // UTF-8: a lead byte says how many continuation bytes follow.
            switch byte {
            case 0x00..<0x80 where needed == 0: scalar = UInt32(byte)
            case 0xC0..<0xE0 where needed == 0: (scalar, needed) = (UInt32(byte & 0x1F), 1); continue
            case 0xE0..<0xF0 where needed == 0: (scalar, needed) = (UInt32(byte & 0x0F), 2); continue
            case 0xF0..<0xF8 where needed == 0: (scalar, needed) = (UInt32(byte & 0x07), 3); continue
            case 0x80..<0xC0 where needed > 0:
                scalar = scalar << 6 | UInt32(byte & 0x3F)
                needed -= 1
                if needed > 0 { continue }
            default:
                // Not UTF-8: the replacement character, as a decoder would give.
                (scalar, needed) = (0xFFFD, 0)
            }
            character?.pointee = wchar_t(bitPattern: scalar)
            return 1
        }
    }

    deinit {
        finish()
        free(promptText)
        history_end(history)
        el_end(editor)
        // libedit is gone: nothing calls back with the client data any more.
        client.deinitialize(count: 1)
        client.deallocate()
    }

    public func read(prompt: String) -> LineInput {
        setPrompt(prompt)
        // Raw mode before the prompt is drawn: libedit would switch only when it reads the
        // first key, and keys typed in between would be echoed by the terminal and an early
        // Ctrl-D swallowed as the terminal's own end-of-file.
        graphstore_el_prep_term(editor, 1)
        var count: Int32 = 0
        errno = 0
        guard let text = el_gets(editor, &count), count > 0 else {
            if count < 0, errno == EINTR || Interrupts.isPending {
                echo("\n")
                return .cancelled
            }
            echo("\n")
            return .end
        }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    public func ask(_ question: String) -> String? {
        switch read(prompt: question) {
        case .line(let answer): return answer
        case .cancelled, .failed: return ""
        case .end: return nil
        }
    }

    public func remember(_ statement: String) {
        var line = statement.replacingOccurrences(of: "\n", with: " ")
        // Completion leaves a space after a word; `.entities ` and `.entities` are one entry.
        while line.last == " " { line.removeLast() }
        graphstore_history_enter(history, &event, line)
    }

    /// Writes the history file (readable by its owner only: it may hold values typed at the prompt).
    public func finish() {
        guard !finished else { return }
        finished = true
        guard let historyPath else { return }
        if graphstore_history_save(history, &event, historyPath) >= 0 { chmod(historyPath, 0o600) }
    }

    private func setPrompt(_ prompt: String) {
        free(promptText)
        promptText = strdup(prompt)
    }

    private func echo(_ text: String) {
        _ = text.withCString { write(echoDescriptor, $0, strlen($0)) }
    }

    /// TAB: inserts the completion (or what all candidates share); when nothing can be
    /// inserted and there are several candidates, lists them under the line.
    private func completeWord() -> UInt8 {
        guard let info = el_line(editor)?.pointee, let buffer = info.buffer, let cursor = info.cursor else { return UInt8(CC_ERROR) }
        let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
        let completion = completer(before)
        guard !completion.candidates.isEmpty else { return UInt8(CC_ERROR) }
        if let edit = completion.edit {
            if edit.deleteCount > 0 { el_deletestr(editor, Int32(edit.deleteCount)) }
            _ = edit.insert.withCString { el_insertstr(editor, $0) }
            return UInt8(CC_REFRESH)
        }
        let width = TerminalInfo(fileDescriptor: echoDescriptor, environment: LaunchEnvironment())?.columns ?? 80
        echo("\n" + CompletionListing.columns(completion.candidates.map(\.display), width: width))
        return UInt8(CC_REDISPLAY)
    }
}

/// The client data libedit hands back to ``EditLineSource``'s callbacks: the source, held
/// weakly (see ``EditLineSource``'s `client`).
private struct EditLineClient {
    weak var source: EditLineSource?

    /// The source an editor's callback is for, if it is still there.
    static func source(of editor: OpaquePointer?) -> EditLineSource? {
        guard let editor, let data = graphstore_el_get_clientdata(editor) else { return nil }
        return data.assumingMemoryBound(to: EditLineClient.self).pointee.source
    }
}
