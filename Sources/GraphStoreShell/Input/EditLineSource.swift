import CEditLine
import Foundation

/// Lines typed at a terminal, through libedit: emacs keys by default (vi when `~/.editrc`
/// says so), history kept in a file.
public final class EditLineSource: LineSource {
    public let name = "stdin"
    public let isInteractive = true
    private let editor: OpaquePointer
    private let history: OpaquePointer
    private var event = HistEvent()
    private let historyPath: String?

    /// Starts libedit on the terminal; nil when it cannot.
    public init?(program: String, historyPath: String?) {
        guard let editor = graphstore_el_init(program), let history = history_init() else { return nil }
        self.editor = editor
        self.history = history
        self.historyPath = historyPath
        graphstore_history_set_size(history, &event, 1000)
        graphstore_history_unique(history, &event, 1)
        if let historyPath { graphstore_history_load(history, &event, historyPath) }
        graphstore_el_set_history(editor, history)
        graphstore_el_set_editor(editor, "emacs")
        graphstore_el_set_signal(editor, 1)
        graphstore_el_set_prompt(editor, { _ in EditLineSource.promptPointer })
        el_source(editor, nil)
    }

    deinit {
        if let historyPath { graphstore_history_save(history, &event, historyPath) }
        history_end(history)
        el_end(editor)
    }

    nonisolated(unsafe) private static var promptStorage: UnsafeMutablePointer<CChar> = strdup("> ")
    nonisolated(unsafe) private static var promptPointer: UnsafeMutablePointer<CChar>? = promptStorage

    public func nextLine(prompt: String) -> String? {
        free(EditLineSource.promptStorage)
        EditLineSource.promptStorage = strdup(prompt)
        EditLineSource.promptPointer = EditLineSource.promptStorage
        var count: Int32 = 0
        guard let text = el_gets(editor, &count), count > 0 else { return nil }
        var line = String(cString: text)
        if line.hasSuffix("\n") { line.removeLast() }
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            graphstore_history_enter(history, &event, line)
        }
        return line
    }
}
