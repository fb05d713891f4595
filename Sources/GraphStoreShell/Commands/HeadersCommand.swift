/// `.headers [on|off]`: whether a header row is printed.
enum HeadersCommand {
    static let command = ShellCommand(
        ".headers", aliases: [".header"], arguments: [OnOffArgument.optional], summary: "print column names above results (table, box, csv, tsv)",
        example: ".headers off",
        details: "JSON, JSONL and line output always name the columns; Markdown tables always have a header row."
    ) { shell, arguments in
        shell.settings.headers = OnOffArgument.value(arguments, current: shell.settings.headers)
    }
}
