import Foundation
import GraphStore

/// `seed status` and `seed apply [--dry-run] UPDATE…`: the seed version a store records, and
/// seed updates (made by `diff --script`) applied to it.
enum SeedCommand {
    static let update = Placeholder("UPDATE", .file)

    static let command = ShellCommand(
        "seed", arguments: [.flag("--dry-run"), .oneOf([[.literal("status")], [.literal("apply"), .repeated([.value(update)])]])],
        summary: "seed status: the seed version the store records; seed apply UPDATE…: run seed updates, each in one transaction",
        example: "seed status",
        details: """
            A seed update is the script diff --script writes: insert, set, link, unlink and delete steps by \
            natural key, each guarded (an insert only when no object has the key, a delete only when one \
            has), so that a user's own objects are never touched and running it twice changes nothing. A \
            delete that would cascade (by the model's delete rules) to objects the update does not delete \
            itself, such as a user's book in a seeded category, is not done: the object is kept, and a line \
            on standard error names the objects that kept it (--dry-run says so too). Each \
            UPDATE is applied in one transaction, and its name (the file name without its extension) is \
            recorded as the store's seed version under the metadata key GraphStoreSeedVersion, which \
            seed status shows. --dry-run applies nothing and says what would change. Needs --write \
            (except status and --dry-run).
            """
    ) { shell, arguments in
        let context = try shell.requireContext()
        if arguments.has("status") {
            let version = context.store.metadata.properties[SeedUpdate.versionKey] as? String
            shell.output("seed version: \(version ?? "none recorded")\n")
            return
        }
        let dryRun = arguments.has("--dry-run")
        if !dryRun, !shell.writeEnabled { throw ShellError("seed apply changes data; open the store with --write to allow it") }
        for file in arguments.words(update) {
            let path = shell.resolve(path: file)
            let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw SeedError("\(file): cannot be read") }
                let outcome = try SeedUpdate(text: text, name: file).apply(to: context, name: file, version: dryRun ? nil : name, dryRun: dryRun)
                shell.output("\(file): \(outcome)\(dryRun ? " (dry run: nothing written)" : "")\n")
                for sentence in outcome.kept { shell.diagnostics("seed apply: \(sentence)\n") }
            } catch {
                throw ShellError("seed apply: \(error)")
            }
        }
    }
}
