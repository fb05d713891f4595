/// Every command the shell starts with, in `.help` order (the session commands last).
enum BuiltinCommands {
    static let all: [ShellCommand] = [
        OpenCommand.command,
        EntitiesCommand.command,
        SchemaCommand.command,
        ModelCommand.command,
        ShowCommand.command,
        RowsCommand.command,
        HelpCommand.command,
        QuitCommand.command,
    ] + SessionCommands.all
}
