import Foundation
import GraphStore

/// `verify [--json] [--expect FILE]`: is the open store fit to ship? Every release check,
/// one row each (check, result, found, detail); fails (exit status 3) when any check fails.
enum VerifyCommand {
    static let expectFile = Placeholder("FILE", .file)

    static let command = ShellCommand(
        "verify", arguments: [.flag("--json"), .option("--expect", expectFile)],
        summary: "check the store is fit to ship: SQLite integrity, shipping state, model, layout, graph, validation; one row per check",
        example: "verify",
        details: """
            Checks, each named: sqlite.integrity (PRAGMA integrity_check), sqlite.journal-mode and \
            sqlite.page-size (reported); shipping.wal (a non-empty -wal beside the store: rows that a copy \
            of the file alone loses; checkpoint first) and shipping.journal (a -journal left); model.version \
            (the store's version hashes against the model's) and model.cache (Z_MODELCACHE against the \
            model on what the version hashes cover, as Core Data tells model versions apart: user info, \
            derived attribute details and inherited properties the archive repeats do not count); layout.primary-keys (a Z_PRIMARYKEY row per entity), layout.z-max (Z_MAX at least the \
            largest Z_PK: a stale one makes the app's next insert collide), layout.z-ent (every Z_ENT known \
            and in its family's table), layout.z-opt (Z_OPT at least 1), layout.ordering (ordered \
            relationships' keys present and distinct); graph.to-one (no key to a missing object), \
            graph.join-rows (no join row with a missing side), graph.inverses (one-to-ones agree), \
            graph.abstract (no object of an abstract entity), graph.delete-rules (no object outlived an \
            owner whose delete rule toward it is Cascade); validation.objects (what validate checks). \
            --expect FILE adds one check per line: 'count ENTITY [where PREDICATE] OP N', 'exists ENTITY \
            where PREDICATE', 'none ENTITY where PREDICATE' (# starts a comment); its found is the number of \
            objects the line counted. --json writes the rows \
            as JSON. The store is only read. Exit status 3 when a check fails.
            """
    ) { shell, arguments in
        let store = try shell.requireStore()
        var expectations: [StoreExpectation] = []
        if let file = arguments.value(of: "--expect") {
            let path = shell.resolve(path: file)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ShellError("verify: cannot read \(file)")
            }
            do {
                expectations = try StoreExpectation.parse(text, file: file)
            } catch {
                throw ShellError("verify: \(error)", exitCode: ExitStatus.usage)
            }
        }
        let saved = shell.settings
        if arguments.has("--json") { shell.settings.select(.json) }
        defer { shell.settings = saved }
        var checks: [VerificationCheck] = []
        do {
            try shell.emit(columns: ["check", "result", "found", "detail"]) { sink in
                checks = try StoreVerifier(store: store).verify(expectations: expectations) { check in
                    sink.row([.text(check.name), .text(check.status.rawValue), .value(.integer(Int64(check.found))), .text(check.detail)])
                }
            }
        } catch {
            throw ShellError("verify: \(error)")
        }
        let failed = checks.filter { $0.status == .failed }
        guard failed.isEmpty else {
            throw ShellError(
                "verify: \(failed.count) of \(checks.count) checks failed: \(failed.map(\.name).joined(separator: ", "))",
                exitCode: ExitStatus.validationFailures)
        }
        shell.diagnostics("verify: \(checks.count) checks, none failed\n")
    }
}
