import GraphStore

/// `explain fetch …` / `explain count …`: the SQL a command would run, its bound values,
/// what is left to memory, and SQLite's query plan.
enum ExplainCommand {
    static let command = ShellCommand(
        "explain", arguments: [.literal("fetch", "count")] + FetchCommandLine.arguments,
        summary: "show the SQL a fetch or count runs, its bound values, and SQLite's query plan",
        example: "explain fetch Book where title BEGINSWITH 'The'"
    ) { shell, arguments in
        let verb = arguments.has("count") ? "count" : "fetch"
        let request = try FetchCommandLine(arguments, command: "explain \(verb)", shell: shell).request
        let plan = try shell.requireStore().queryPlan(for: request, resultType: verb == "count" ? .count : request.resultType)
        shell.output(SQLText.lines(plan.sql))
        for note in plan.sql.notes { shell.output("-- note: \(note)\n") }
        shell.output(plan.text + "\n")
    }
}

/// `.sql [on|off | STATEMENT]`: echo the SQL each fetch and count runs, or run a
/// read-only statement as `sql` does.
enum SQLEchoCommand {
    static let command = ShellCommand(
        ".sql", arguments: [.optional([.oneOf([[.literal("on", "off")], [.value(SQLCommand.statement)]])])],
        summary: "on|off: echo the SQL (and bound values) each fetch and count runs; STATEMENT: run read-only SQL, as sql does",
        example: ".sql on"
    ) { shell, arguments in
        if arguments.has("on") {
            shell.settings.echoSQL = true
        } else if arguments.has("off") {
            shell.settings.echoSQL = false
        } else if let statement = arguments.text(from: SQLCommand.statement) {
            try SQLCommand.run(statement, shell: shell)
        } else {
            shell.output("sql echo is \(shell.settings.echoSQL ? "on" : "off")\n")
        }
    }
}
