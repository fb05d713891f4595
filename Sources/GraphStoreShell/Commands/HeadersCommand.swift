/// `.headers on|off`: whether a header row is printed.
enum HeadersCommand {
    static let command = ShellCommand(
        ".headers", aliases: [".header"], usage: ".headers on|off", summary: "print column names above results (table, box, csv, tsv)",
        example: ".headers off",
        details: "JSON, JSONL and line output always name the columns; Markdown tables always have a header row."
    ) { shell, words, _ in
        shell.settings.headers = try OnOffArgument.value(words, current: shell.settings.headers, usage: ".headers on|off")
    }
}
