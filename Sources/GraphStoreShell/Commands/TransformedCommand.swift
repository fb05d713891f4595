/// `.transformed [on|off]`: whether Transformable values are shown decoded from their keyed
/// archives or as their stored bytes.
enum TransformedCommand {
    static let command = ShellCommand(
        ".transformed", arguments: [OnOffArgument.optional],
        summary: "show Transformable values decoded from their keyed archives (on, the default) or as their stored bytes (off)",
        example: ".transformed off",
        details: """
            On, a Transformable value stored as an NSKeyedArchiver archive of Foundation's plist classes (arrays, \
            dictionaries, sets, strings, numbers, dates, data, URLs, UUIDs, null), as NSSecureUnarchiveFromData \
            writes it, is shown as JSON text (["fiction", "classic"]), and in json and jsonl as JSON; bytes that do \
            not decode are shown as bytes. Off shows the bytes (0x hex, or <16 bytes: 62706c69…> in table and box), \
            as export writes them and import and set read them. .rows always shows the bytes.
            """
    ) { shell, arguments in
        shell.settings.transformedValues = OnOffArgument.value(arguments, current: shell.settings.transformedValues)
    }
}
