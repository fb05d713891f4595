/// `.expanded [on|off|auto]` and psql's `\x`: one field per line.
enum ExpandedCommand {
    static let command = ShellCommand(
        ".expanded", aliases: ["\\x"], arguments: [OnOffArgument.optionalWithAuto],
        summary: "show table and box results one field per line, a header per record (psql's expanded display); auto (the default at a terminal): when a row is wider than the terminal",
        example: "\\x on",
        details: """
            With no argument, expanded display is switched on or off, as psql's \\x does. The new \
            state is printed (expanded display is on; auto: expanded display is used automatically) \
            when it is switched so, or set at the prompt; a script that sets it prints nothing. \
            auto applies at a terminal only, and is the default there (as psql users set it in \
            their .psqlrc): a result whose rows do not fit its width, judged on the rows the table \
            measures (the first 500, or all of a shorter result), is shown expanded, others as a table. \
            Other modes are left as they are (line mode is always one value per line).
            """
    ) { shell, arguments in
        let setting: ExpandedDisplay? = OnOffArgument.choice(arguments)
        shell.settings.expanded = setting ?? (shell.settings.expanded == .off ? .on : .off)
        shell.confirmSetting(sentence(shell.settings.expanded), toggled: setting == nil)
    }

    /// What psql says of each setting.
    static func sentence(_ setting: ExpandedDisplay) -> String {
        switch setting {
        case .on, .off: "expanded display is \(setting.rawValue)"
        case .auto: "expanded display is used automatically"
        }
    }
}
