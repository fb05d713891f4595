/// Every command the shell starts with, in `.help` order.
enum BuiltinCommands {
    static let all: [ShellCommand] = [
        OpenCommand.command,
        EntitiesCommand.command,
        SchemaCommand.command,
        ModelCommand.command,
        ShowCommand.command,
        RowsCommand.command,
        FetchCommand.command,
        CountCommand.command,
        ExplainCommand.command,
        SQLEchoCommand.command,
        InsertCommand.command,
        SetCommand.command,
        DeleteCommand.command,
        LinkCommand.link,
        LinkCommand.unlink,
        SaveCommand.save,
        SaveCommand.rollback,
        ValidateCommand.command,
        HelpCommand.command,
        QuitCommand.command,
    ]
}
