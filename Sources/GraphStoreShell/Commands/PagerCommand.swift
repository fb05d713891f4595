/// `.pager [on|off|auto]`: whether results at the prompt go through `$PAGER`.
enum PagerCommand {
    static let command = ShellCommand(
        ".pager", arguments: [OnOffArgument.optionalWithAuto],
        summary: "page results at the prompt through $PAGER (default less -FRSX): auto when taller than the terminal, on always, off never",
        example: ".pager off",
        details: """
            Only results of commands typed at the prompt, with standard output a terminal, are \
            paged: never a script, piped output or .output. auto, the default, pages a result that \
            would not fit the terminal's height (psql's \\pset pager on); on pages every result. \
            PAGER= (empty) turns the pager off. Quitting the pager early stops the command quietly. \
            With no argument, shows the setting.
            """
    ) { shell, arguments in
        if let setting: PagerSetting = OnOffArgument.choice(arguments) {
            shell.options.pager = setting
        } else {
            shell.output("pager: \(shell.options.pager.rawValue) (\(shell.pagerCommand ?? "no pager command"))\n")
        }
    }
}
