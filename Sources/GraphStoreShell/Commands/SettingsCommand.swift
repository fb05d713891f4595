/// `.settings` (sqlite3's `.show`): the current settings.
enum SettingsCommand {
    static let command = ShellCommand(
        ".settings", aliases: [".show"],
        summary: "show the settings: store, mode, headers, null text, separators, widths, expanded display, transformed values, pager, output, timer, echo, bail, changes",
        example: ".settings"
    ) { shell, _ in
        let store = shell.store
        let settings: [(String, String)] = [
            ("store", store?.path ?? shell.plainFile.map { "\($0.path) (plain SQLite file)" } ?? "(none)"),
            ("access", store == nil ? (shell.plainFile == nil ? "" : "read-only") : (store?.isReadOnly == false ? "read-write" : "read-only")),
            ("model", store.map { "\($0.modelOrigin)" } ?? ""),
            ("mode", shell.settings.mode.rawValue),
            ("headers", onOff(shell.settings.headers)),
            ("nullvalue", "'\(shell.settings.nullText)'"),
            ("separator", shell.settings.columnSeparator.map { "'\(SeparatorCommand.escaped($0))'" } ?? "the mode's own"),
            ("newline", "'\(SeparatorCommand.escaped(shell.settings.rowSeparator ?? "\n"))'"),
            ("width", shell.settings.columnWidths.isEmpty ? "automatic" : shell.settings.columnWidths.map(String.init).joined(separator: " ")),
            ("expanded", shell.settings.expanded.rawValue),
            ("transformed", onOff(shell.settings.transformedValues)),
            ("tz", TimeZoneCommand.name(of: shell.settings.timeZone)),
            ("pager", shell.options.pager.rawValue + (shell.pagerCommand.map { " (\($0))" } ?? "")),
            ("output", shell.state.redirection.map { $0.shownAs + ($0.once ? " (once)" : "") } ?? "stdout"),
            ("timer", onOff(shell.options.timer)),
            ("echo", onOff(shell.options.echo)),
            ("bail", onOff(shell.options.bail)),
            ("changes", onOff(shell.options.changes)),
            ("parameters", "\(shell.parameters.all.count)"),
        ]
        shell.emit(columns: ["setting", "value"]) { sink in
            for (name, value) in settings { sink.row([.text(name), .text(value)]) }
        }
    }

    private static func onOff(_ value: Bool) -> String { value ? "on" : "off" }
}
