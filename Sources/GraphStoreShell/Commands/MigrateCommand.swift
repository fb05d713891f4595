import Foundation
import GraphStore

/// `migrate --model BUNDLE [--to VERSION] [--walk | --through VERSIONS] [--mapping FILE]…
/// [--plan | --dry-run] [--no-backup] [--batch-size N]`: the plan of the open store's migration to a version of a model bundle,
/// then (unless `--plan`) the migration itself, and a summary.
enum MigrateCommand {
    static let target = Placeholder("VERSION")
    static let waypoints = Placeholder("VERSIONS")
    static let mappingFile = Placeholder("FILE", .file)
    static let batchSize = Placeholder("N", .wholeNumber(from: 1))

    static let command = ShellCommand(
        "migrate",
        arguments: [
            .requiredOption("--model", ModelVersionsArgument.bundle), .option("--to", target), .flag("--walk"),
            .option("--through", waypoints), .repeatableOption("--mapping", mappingFile), .flag("--plan"), .flag("--dry-run"), .flag("--no-backup"),
            .option("--batch-size", batchSize),
        ],
        summary: "migrate the store to a version of a model bundle (the current one unless --to): the plan, the run, a summary; --plan only plans, --dry-run changes nothing",
        example: "migrate --model examples/BookStore/History.xcdatamodeld --plan",
        details: """
            The store's version is found as .versions finds it; when no version fits (the model was edited \
            without a new version), the store's own model, kept in its Z_MODELCACHE, is the source, as Core \
            Data is taken to do (uncertain), provided its hashes are the store's. The plan is one step straight to the \
            target, inferred as Core Data's automatic lightweight migration infers it: Core Data does not \
            visit the versions between. --walk walks every version instead (v1 → v2 → … → the target, as \
            progressive migrations do), and --through V2,V4 passes through the named versions (a comma \
            between names); each step is then inferred the same way. Renames chain along a walk but not \
            in one step; where the two carry different values, the plan names them. Mapping models are \
            looked for as Core Data finds those compiled into the app: the .xcmappingmodel files of the project \
            around the bundle (from the folder holding an .xcodeproj, Package.swift or .git, up to three folders \
            above the bundle), and any given with --mapping FILE (repeatable); the plan lists each with the \
            versions its snapshots are, or why it fits none. Core Data runs a mapping model that fits a step \
            instead of inferring the step, and so does migrate: each entity mapping makes its objects from \
            the source objects its filter passes, then sets their relationships, then every object is \
            validated (.mapping shows what a mapping model does); the new file is saved every --batch-size N \
            objects (2000 by default) and each batch let go of, so memory stays flat however large the store. \
            A mapping model that only copies values (the default policy, no filter, each value a source attribute \
            of the same type or the objects another mapping made) runs as SQL instead, as an inferred step does, \
            keeping each object's key; the plan says which way each step runs. Before anything runs, each mapping is \
            checked against the two versions, naming the mapping, the property and what differs. A mapping \
            that names a custom migration policy class is refused by that name: policies are Swift classes \
            an app registers with the library (MigrationPolicies), and the shell has none. A step infers \
            entities and properties added, removed or renamed through their renaming identifier, optionality, to-one and to-many, ordering, hierarchy, and how each relationship is \
            stored. A step Core Data cannot infer is refused with its code, 134140 when a mapping model is \
            needed and 134110 when the store's objects would fail, naming the entity, the property and the \
            change; the command then fails. A relationship that changes shape (one-to-one, one-to-many, \
            many-to-many, either way) keeps its links; a to-many that becomes a to-one where an object has \
            several destinations is refused with 134110, naming how many and one of them. A change of type \
            among Boolean, Integer 16/32/64, Float and Double is carried as SQLite converts the numbers; \
            where some values would not survive it (a narrower integer, a real into an integer, a number \
            into a Boolean) a store holding one is refused with 134110, naming how many objects and one; \
            other type changes need a mapping model (134140). --plan only \
            shows the plan. Otherwise the migration runs (it needs --write): each step writes a new file \
            beside the store with every object and its key, join tables and ordering, defaults and \
            renames carried and the store's UUID kept; the last is validated against the rules of the \
            target version the migration changes (a value copied under an unchanged rule is not read \
            again; verify checks every rule) and only then put in the store's place, the old store kept \
            as STORE.backup unless --no-backup. An earlier STORE.backup (or its support folder) is never \
            overwritten: the migration is refused until it is moved away, or run with --no-backup. A store \
            open for writing elsewhere (another graphstore --write session, an app, sqlite3) is waited for \
            five seconds, then the migration is refused; a graphstore --write session started meanwhile \
            waits for the migration, and one whose file was replaced by another program refuses its next \
            save. --dry-run migrates into a temporary file and reports \
            what would fail validation, changing nothing. A migration that fails says why, exits non-zero \
            and leaves the store as it was. The store is then reopened with the target version's model.
            """
    ) { shell, arguments in
        // Only the store's path and access are kept: the store itself must be let go of
        // before a migration replaces its file (see `run`).
        let (path, isReadOnly, versions, match) = try read(shell, arguments)
        let route = try MigrateCommand.route(arguments)
        let mappingModels = try MigrateCommand.mappingModels(shell, arguments, versions: versions)
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(match: match, versions: versions, to: arguments.value(of: "--to"), route: route, mappingModels: mappingModels)
        } catch {
            throw ShellError("migrate: \(error)")
        }
        shell.output(plan.text)
        if plan.isRefused { throw ShellError("migrate: \(plan.outcome)") }
        if arguments.has("--plan") || plan.steps.isEmpty { return }
        try run(plan, of: path, isReadOnly: isReadOnly, manager: MigrationManager(versions: versions, mappingModels: mappingModels), shell: shell, arguments: arguments)
    }

    /// The mapping models given with `--mapping` (each must be read), then those of the
    /// project around the bundle.
    private static func mappingModels(_ shell: Shell, _ arguments: ParsedArguments, versions: ModelVersions) throws -> [MappingModelCandidate] {
        var given: [MappingModelCandidate] = []
        for path in arguments.values(of: "--mapping") {
            do {
                given.append(try MappingModelCandidate.read(shell.resolve(path: path), versions: versions))
            } catch {
                throw ShellError("migrate: \(error)")
            }
        }
        let paths = Set(given.map { ($0.path as NSString).standardizingPath })
        return given + MappingModelCandidate.around(bundle: versions.path, versions: versions).filter { !paths.contains(($0.path as NSString).standardizingPath) }
    }

    /// The route `--walk` or `--through` asks for; one inferred step without them.
    private static func route(_ arguments: ParsedArguments) throws -> MigrationPlan.Route {
        let through = arguments.value(of: "--through")
        if arguments.has("--walk") {
            guard through == nil else { throw ShellError("migrate: --walk and --through cannot be combined: --walk visits every version") }
            return .everyVersion
        }
        guard let through else { return .inferred }
        let names = through.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw ShellError("migrate: --through needs version names separated by commas, as in --through 'Model 2,Model 3'")
        }
        return .through(names)
    }

    private static func read(_ shell: Shell, _ arguments: ParsedArguments) throws -> (String, Bool, ModelVersions, ModelVersionMatch) {
        let (store, versions, match) = try ModelVersionsArgument.read(shell, arguments)
        return (store.path, store.isReadOnly, versions, match)
    }

    /// Runs the migration. A real run first closes the shell's store, so that no connection
    /// of this process is left on the old file when the new one takes its name (closing it
    /// later would remove the new file's log), and opens the store again afterwards.
    private static func run(
        _ plan: MigrationPlan, of path: String, isReadOnly: Bool, manager: MigrationManager, shell: Shell, arguments: ParsedArguments
    ) throws {
        let dryRun = arguments.has("--dry-run")
        guard dryRun || !isReadOnly else {
            throw ShellError("migrate: the store is open read-only; migrating writes it and needs --write (or use --dry-run)")
        }
        let unsaved = ChangeSummary(shell.context)
        guard dryRun || unsaved.total == 0 else {
            // Reopening the migrated store would drop them.
            throw ShellError("migrate: \(unsaved.sentence) not saved; save or rollback first", exitCode: ExitStatus.unsavedChanges)
        }
        var options = MigrationManager.Options(keepsBackup: !arguments.has("--no-backup"), isDryRun: dryRun)
        if let size = arguments.value(of: "--batch-size") {
            guard let size = Int(size), size >= 1 else { throw ShellError("migrate: --batch-size takes a whole number from 1, not \(size)") }
            options.mappingBatchSize = size
        }
        let reopened = "\(manager.versions.path)/\(plan.targetVersion).xcdatamodel"
        if !dryRun { shell.closeStore() }
        let progress = MigrationProgressLine(shell: shell)
        let outcome: MigrationManager.Outcome
        do {
            outcome = try manager.migrate(storeAt: path, to: plan.targetVersion, route: plan.route, options: options) {
                progress.show($0)
            }
        } catch {
            progress.finish()
            if !dryRun { try? shell.open(path: path) }
            throw ShellError("migrate: \(error); the store is unchanged")
        }
        progress.finish()
        shell.output(summary(outcome, path: path))
        if !dryRun { try shell.open(path: path, modelPath: reopened) }
        if dryRun, !outcome.validationFailures.isEmpty {
            throw ShellError("migrate: \(outcome.validationFailures.count) validation failures after migration", exitCode: ExitStatus.validationFailures)
        }
    }

    private static func summary(_ outcome: MigrationManager.Outcome, path: String) -> String {
        let objects = outcome.objectCounts.values.reduce(0, +)
        let steps = outcome.plan.steps.count
        var lines: [String] = []
        if outcome.replacedStore {
            lines.append("Migrated \(path) to \(outcome.plan.targetVersion) in \(steps) step\(steps == 1 ? "" : "s"): \(objects) objects.")
            lines.append(outcome.backup.map { "The old store is kept at \($0)." } ?? "No backup was kept.")
        } else {
            lines.append("Dry run: \(path) would migrate to \(outcome.plan.targetVersion) in \(steps) step\(steps == 1 ? "" : "s") with \(objects) objects; nothing was changed.")
            lines += outcome.validationFailures.map { "would fail validation: \($0)" }
        }
        lines += outcome.preexistingFailures.map { "already failing before the migration: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The progress of a migration, one line rewritten in place on a terminal; nothing when
/// messages do not go to a terminal (scripts and CI keep clean output).
final class MigrationProgressLine {
    private let shell: Shell
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var shown = false

    init(shell: Shell) { self.shell = shell }

    func show(_ progress: MigrationManager.Progress) {
        guard isTerminal else { return }
        shell.diagnostics("\r\u{1B}[K" + "step \(progress.step + 1)/\(progress.stepCount) → \(progress.destination): \(progress.objectsCopied)/\(progress.objectsInStep) objects")
        shown = true
    }

    func finish() {
        if shown { shell.diagnostics("\r\u{1B}[K") }
        shown = false
    }
}
