import GraphStore

/// `explain fetch …` / `explain count …`: the SQL a command would run, its bound values,
/// what is left to memory, and SQLite's query plan.
enum ExplainCommand {
    static let command = ShellCommand(
        "explain", usage: "explain fetch|count ENTITY [where PREDICATE] [sort …] [limit N] [offset N]",
        summary: "show the SQL a fetch or count runs, its bound values, and SQLite's query plan",
        example: "explain fetch Book where title BEGINSWITH 'The'"
    ) { shell, words, text in
        guard let verb = words.first?.lowercased(), verb == "fetch" || verb == "count" else {
            throw ShellError("usage: explain fetch|count ENTITY [where PREDICATE] …")
        }
        let rest = text.drop(while: { !$0.isWhitespace }).drop(while: \.isWhitespace)
        let request = try FetchCommandLine(rest, command: "explain \(verb)", shell: shell).request
        let plan = try shell.requireStore().queryPlan(for: request, resultType: verb == "count" ? .count : .objects)
        shell.output(SQLText.lines(plan.sql))
        for note in plan.sql.notes { shell.output("-- note: \(note)\n") }
        shell.output(plan.text + "\n")
    }
}

/// `.sql on|off`: echo the SQL each fetch and count runs.
enum SQLEchoCommand {
    static let command = ShellCommand(
        ".sql", usage: ".sql [on|off]", summary: "echo the SQL (and bound values) each fetch and count runs",
        example: ".sql on"
    ) { shell, words, _ in
        switch words.first?.lowercased() {
        case "on"?: shell.settings.echoSQL = true
        case "off"?: shell.settings.echoSQL = false
        case nil: shell.output("sql echo is \(shell.settings.echoSQL ? "on" : "off")\n")
        default: throw ShellError("usage: .sql [on|off]")
        }
    }
}
