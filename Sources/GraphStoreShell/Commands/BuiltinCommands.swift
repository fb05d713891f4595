/// Every command the shell starts with, in `.help` order.
enum BuiltinCommands {
    // The stopgap editing commands come first: a command of the same name listed later
    // replaces them (see StopgapEditCommands).
    static let all: [ShellCommand] = StopgapEditCommands.all + [
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
        UndoRedoCommands.undo,
        UndoRedoCommands.redo,
        UndoGroupCommands.begin,
        UndoGroupCommands.end,
        UndoListCommand.command,
        JournalCommand.command,
        ReplayCommand.command,
    ]
}
