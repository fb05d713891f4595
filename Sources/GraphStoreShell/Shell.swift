import Foundation
import GraphStore

/// The `graphstore` REPL's engine: the open store, output settings, and the commands.
///
/// It talks to the library only through `GraphStore`'s public API. Lines come from a
/// terminal, a pipe, a file or `-c`; results go to `output`, messages to `diagnostics`.
///
/// ```swift
/// let shell = Shell(output: { print($0, terminator: "") }, diagnostics: { FileHandle.standardError.write(Data($0.utf8)) })
/// try shell.open(path: "examples/BookStore/BookStore.sqlite")
/// try shell.execute(".entities")
/// ```
public final class Shell {
    /// The open store, if any.
    public private(set) var store: PersistentStore?
    /// The plain SQLite file open instead of a store, if any: a file that is no Core Data
    /// store opens read-only for `sql`, `.rows` and `.schema`.
    public private(set) var plainFile: PlainSQLiteFile?
    /// The open store's file, or the plain SQLite file: what `sql`, `.rows` and `.schema` read.
    public var database: (any SQLiteReading)? { store ?? plainFile }
    /// The context on the open store.
    public private(set) var context: ManagedObjectContext?
    /// Output mode and friends.
    public var settings = OutputSettings()
    /// `.bail`, `.echo`, `.timer`, `.changes`.
    public var options = ShellOptions()
    /// Values bound with `.parameter set`, used as `$NAME` in predicates.
    public var parameters = ShellParameters()
    /// The terminal standard output is, if it is one: tables are fitted to it and coloured.
    public var terminal: TerminalInfo?
    /// Writes out output that `output` buffers; called before prompts and messages.
    public var flushOutput: () -> Void = {}
    /// The program's standard output, when `output` writes to it: a write that fails there
    /// fails the command that wrote, and a closed pipe ends the session.
    public var standardOutput: FileOutput?
    /// The pager command for results at the prompt (`$PAGER`, or `less -FRSX`); nil for none.
    /// The launcher sets it for an interactive session on a terminal.
    public var pagerCommand: String?
    /// The open store's files, which output and journals must not write over.
    private(set) var storeFiles: StoreFiles?
    /// How the open store differs from the model given for it, when it was opened to browse
    /// anyway (`--browse-mismatch`); empty otherwise.
    private(set) var modelMismatch: [String] = []
    /// What the session keeps between commands: redirection, script nesting, `.exit` status.
    var state = SessionState()
    /// Whether writes are allowed (`--write`, `.open --write`).
    public var writeEnabled: Bool
    /// Whether graphstore was started with `--write`: how `.open` opens a store when it is
    /// given neither `--write` nor `--readonly`.
    public let writeEnabledAtStart: Bool
    /// Set by `.quit`.
    public private(set) var shouldQuit = false
    /// Where results go.
    public var output: (String) -> Void
    /// Where messages go.
    public let diagnostics: (String) -> Void
    /// Whether Ctrl-C asked the running command to stop: the flag the interactive session's
    /// SIGINT handler sets, unless a program embedding the shell answers from a cancellation
    /// of its own. Result loops stop early and the command reports `interrupted`.
    public var isInterrupted: () -> Bool = { Interrupts.isPending }
    /// The commands, in `.help` order.
    public private(set) var commands: [ShellCommand] = []
    private var commandsByName: [String: Int] = [:]
    /// The commands' clause words, for reading statements over lines; made on first use.
    private var grammar: StatementGrammar?
    /// The steps of MATCHES and LIKE one command may take (see ``MatchBudget``).
    var matchBudgetSteps = MatchBudget.defaultSteps
    /// Undo groups, `begin … end`, the journal (see `Shell+Undo.swift`).
    let undoState = ShellUndoState()

    /// Creates a shell with the built-in commands.
    public init(writeEnabled: Bool = false, output: @escaping (String) -> Void, diagnostics: @escaping (String) -> Void) {
        self.writeEnabled = writeEnabled
        self.writeEnabledAtStart = writeEnabled
        self.output = output
        self.diagnostics = diagnostics
        for command in BuiltinCommands.all { add(command) }
    }

    /// Adds (or replaces) a command.
    public func add(_ command: ShellCommand) {
        if let i = commandsByName[command.name] {
            commands[i] = command
        } else {
            commands.append(command)
        }
        let index = commandsByName[command.name] ?? commands.count - 1
        for name in [command.name] + command.aliases { commandsByName[name.lowercased()] = index }
        grammar = nil
    }

    /// How the commands go on over lines (see ``StatementGrammar``).
    var statementGrammar: StatementGrammar {
        if let grammar { return grammar }
        let made = StatementGrammar(commands: commands)
        grammar = made
        return made
    }

    /// The command with this name or alias.
    public func command(named name: String) -> ShellCommand? {
        commandsByName[name.lowercased()].map { commands[$0] }
    }

    // MARK: - Store

    /// Opens a store (read-only unless writes are enabled), with a model file or without.
    /// When the store's own `Z_MODELCACHE` could not be used, a warning says why, once.
    /// A store that `.output` or `.journal` writes to, or to one of its files, is refused.
    ///
    /// With `browsingMismatch`, a store that does not match the model still opens, read-only
    /// and with its own model (its Z_MODELCACHE, or one inferred from its tables), after the
    /// differences are said; `.model` lists them first. Without it, `askToBrowse` (given the
    /// mismatch) may say yes instead: the prompt's question.
    public func open(path: String, modelPath: String? = nil, browsingMismatch: Bool = false, askToBrowse: ((String) -> Bool)? = nil) throws {
        try checkNotWrittenTo(storePath: path)
        let store: PersistentStore
        var mismatch: [String] = []
        do {
            if let modelPath {
                let model = try ModelFiles.load(path: modelPath)
                let opened = try openWithModel(path: path, model: model, modelPath: modelPath, browsingMismatch: browsingMismatch, askToBrowse: askToBrowse)
                store = opened.store
                mismatch = opened.mismatch
            } else {
                store = try PersistentStore(path: path, readOnly: !writeEnabled)
            }
        } catch StoreError.notCoreData(_, let missing) where modelPath == nil {
            return try openPlainFile(path, missing: missing)
        } catch {
            throw ShellError("\(error)", exitCode: ExitStatus.storeNotOpened)
        }
        modelMismatch = mismatch
        Interrupts.watch(store)
        plainFile = nil
        self.store = store
        self.storeFiles = StoreFiles(storePath: store.path)
        self.context = ManagedObjectContext(store: store)
        // Said once, here, for scripts and the prompt alike: without it the only trace
        // is a note under .model, and names and relationships quietly become guesses.
        if let problem = store.modelCacheProblem { diagnostics("graphstore: warning: \(problem)\n") }
    }

    /// Opens an SQLite file that is no Core Data store (it lacks the tables `missing`),
    /// read-only, for `sql`, `.rows` and `.schema`, with a note saying so: as sqlite3 would
    /// open it, rather than refusing it.
    private func openPlainFile(_ path: String, missing: [String]) throws {
        let file: PlainSQLiteFile
        do {
            file = try PlainSQLiteFile(path: path)
        } catch {
            throw ShellError("\(error)", exitCode: ExitStatus.storeNotOpened)
        }
        Interrupts.watch(file)
        modelMismatch = []
        context = nil
        store = nil
        plainFile = file
        storeFiles = StoreFiles(storePath: path)
        diagnostics(
            "graphstore: note: \((path as NSString).lastPathComponent) is a plain SQLite file, not a Core Data store "
                + "(no \(missing.joined(separator: " or "))): opened read-only for sql, .rows and .schema\n")
    }

    /// The store opened with a model file; on a mismatch, when browsing is asked for, opened
    /// read-only with its own model instead, with the differences.
    private func openWithModel(
        path: String, model: ManagedObjectModel, modelPath: String, browsingMismatch: Bool, askToBrowse: ((String) -> Bool)?
    ) throws -> (store: PersistentStore, mismatch: [String]) {
        var differences: [String] = []
        do {
            let store = try PersistentStore(path: path, model: model, origin: .file(modelPath), readOnly: !writeEnabled)
            return (store, [])
        } catch {
            guard case .modelMismatch(_, let found) = error else { throw error }
            if browsingMismatch {
                diagnostics("graphstore: \(error)\n")
            } else if askToBrowse?("\(error)") != true {
                throw ShellError("\(error)\nhint: --browse-mismatch opens it read-only with its own model", exitCode: ExitStatus.storeNotOpened)
            }
            differences = found
        }
        let store = try PersistentStore(path: path, readOnly: true)
        diagnostics("graphstore: browsing read-only instead; model: \(store.modelOrigin)\n")
        return (store, differences.map { "\(modelPath): \($0)" })
    }

    /// Creates an empty store at `path` in Core Data's layout for the current version of the
    /// model file at `modelPath` (`--create`, `.open --create`), then opens it for writing.
    /// An existing file is refused: creating never writes over a store.
    public func create(path: String, modelPath: String) throws {
        guard writeEnabled else { throw ShellError("--create makes a new store; it needs --write", exitCode: ExitStatus.usage) }
        try checkNotWrittenTo(storePath: path)
        do {
            let model = try ModelFiles.load(path: modelPath)
            _ = try PersistentStore.create(at: path, model: model)
        } catch {
            throw ShellError("cannot create \(path): \(error)", exitCode: ExitStatus.storeNotOpened)
        }
        try open(path: path, modelPath: modelPath)
    }

    /// Closes the open store (its unsaved changes are dropped), as the session ends or before
    /// a migration puts a new file in its place: SQLite then folds a write-ahead log back
    /// into the file and removes it, so that a store made or changed by a script is one file
    /// again (a seed is copied as one).
    public func closeStore() {
        Interrupts.forgetStore()
        // Checkpointed first: a statement still held elsewhere would keep SQLite from
        // closing the file (and folding its log in) when the store goes.
        if let store, !store.isReadOnly { try? store.checkpoint() }
        context = nil
        store = nil
        plainFile = nil
        storeFiles = nil
    }

    /// Refuses to open a store whose file, or one of its companions, output or the journal
    /// goes to: the store would be written over.
    private func checkNotWrittenTo(storePath path: String) throws(ShellError) {
        let files = StoreFiles(storePath: path)
        let writers = [(".output", state.redirection?.path), (".journal", undoState.journal?.resolvedPath)]
        for case let (command, target?) in writers {
            if let role = files.role(of: target) {
                throw ShellError("cannot open \(path): \(command) writes to \(role.fromTheStore)", exitCode: ExitStatus.storeNotOpened)
            }
        }
    }

    /// The open store, or an error saying none is open (or that a plain SQLite file is).
    public func requireStore() throws -> PersistentStore {
        guard let store else { throw noStore }
        return store
    }

    /// The context of the open store.
    public func requireContext() throws -> ManagedObjectContext {
        guard let context else { throw noStore }
        return context
    }

    /// The open store's file or plain SQLite file, for the commands that read either.
    public func requireDatabase() throws -> any SQLiteReading {
        guard let database else { throw noStore }
        return database
    }

    /// Why a command that needs a store cannot run.
    private var noStore: ShellError {
        guard let plainFile else { return ShellError("no store is open; use .open STORE") }
        let name = (plainFile.path as NSString).lastPathComponent
        return ShellError("\(name) is a plain SQLite file, not a Core Data store: only sql (or SQL typed bare), .rows and .schema read it")
    }

    /// The mapping of an entity of the open store, or an error listing the entities.
    public func mapping(_ name: String) throws -> EntityMapping {
        let store = try requireStore()
        if let mapping = try? store.mapping(for: name) { return mapping }
        if let match = store.allMappings.first(where: { $0.name.lowercased() == name.lowercased() }) {
            return match
        }
        let names = store.allMappings.map(\.name)
        throw ShellError("no entity named \(name)" + Suggestion.didYouMean(name, among: names, otherwise: "; entities: \(names.joined(separator: ", "))"), token: name)
    }

    /// The names of an entity's attributes and relationships, for "did you mean".
    func keyNames(of mapping: EntityMapping) -> [String] {
        mapping.attributes.map(\.attribute.name) + mapping.relationships.map(\.relationship.name)
    }

    // MARK: - Running

    /// Streams a result to the output in the current mode. It stops early on Ctrl-C, and
    /// when the output cannot be written (a full disk, a closed pipe): the rest would be
    /// lost, so the store's statement is stopped too and the command fails on the write.
    ///
    /// Nothing is written until the first row: when `produce` fails before it, standard
    /// output gets nothing (not a header, not JSON's `[`). The first result cut to fit the
    /// terminal says so once, on the diagnostics.
    public func emit(columns: [String], _ produce: (ResultSink) throws -> Void) rethrows {
        let result = startResult(columns: columns)
        do {
            try produce(result.sink)
        } catch {
            // The rows written before the failure are shown, as they were produced.
            result.sink.flush()
            throw error
        }
        result.finish()
    }

    /// A result's writer, and what ends the result once every row is in (see ``emit(columns:_:)``).
    func startResult(columns: [String]) -> (sink: ResultWriter, finish: () -> Void) {
        let settings = effectiveSettings
        let writer = ResultWriter(
            settings: settings,
            isInterrupted: { [unowned self] in
                guard outputHasFailed else { return isInterrupted() }
                database?.interrupter.interrupt()
                return true
            },
            isPaged: { [unowned self] in isPaged(lines: $0) },
            // A redirected result is a file of its own, not part of the document.
            document: state.redirection == nil ? state.document : nil, write: output)
        writer.begin(columns: columns)
        return (writer, { [unowned self] in
            writer.end()
            if writer.cutToFit, !state.hasToldAboutFitting, let width = settings.terminalWidth {
                state.hasToldAboutFitting = true
                // Under \x auto, only rows past those it measured can be cut.
                let remedy =
                    settings.expanded == .auto
                    ? "\\x auto chose a table from the first \(ResultWriter.measuredRows) rows, which fitted; \\x on shows every row one field per line"
                    : "\\x auto shows such rows one field per line, and the pager (.pager on) shows them whole"
                state.notes.append("note: the table was cut to fit the terminal's \(width) columns (… marks what is left out; said once); " + remedy)
            }
        })
    }

    /// Asks the shell to stop after this command.
    public func quit() { shouldQuit = true }

    /// Takes back a `.quit` (and the status `.exit N` asked for): the person chose to stay.
    func stayAfterQuit() {
        shouldQuit = false
        state.exitStatus = nil
    }
}
