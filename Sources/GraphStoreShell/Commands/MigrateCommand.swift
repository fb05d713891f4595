import GraphStore

/// `migrate --model BUNDLE [--to VERSION] --plan`: the plan of the open store's migration
/// to a version of a model bundle, read-only. Running a migration comes in a later change,
/// so `--plan` is required for now.
enum MigrateCommand {
    static let target = Placeholder("VERSION")

    static let command = ShellCommand(
        "migrate", arguments: [.requiredOption("--model", ModelVersionsArgument.bundle), .option("--to", target), .requiredFlag("--plan")],
        summary: "plan the store's migration to a version of a model bundle (the current one unless --to): each step, entity and property, what happens to it, how many objects; only --plan for now",
        example: "migrate --model examples/BookStore/History.xcdatamodeld --plan",
        details: """
            The store's version is found as .versions finds it. The plan walks the bundle's versions one \
            step at a time (v1 → v2 → … → the target), each step inferred as Core Data's lightweight \
            migration infers it: entities and properties added, removed or renamed through their renaming \
            identifier, optionality, to-one and to-many, ordering, hierarchy, and how each relationship is \
            stored. A step Core Data cannot infer is refused with its code, 134140 when a mapping model is \
            needed and 134110 when the store's objects would fail, naming the entity, the property and the \
            change; the command then fails. --plan only shows the plan and changes nothing: running a \
            migration comes in a later change.
            """
    ) { shell, arguments in
        let (_, versions, match) = try ModelVersionsArgument.read(shell, arguments)
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(match: match, versions: versions, to: arguments.value(of: "--to"))
        } catch {
            throw ShellError("migrate: \(error)")
        }
        shell.output(plan.text)
        if plan.isRefused { throw ShellError("migrate: \(plan.outcome)") }
    }
}
