import Foundation
import GraphStore

/// `.history [--since TOKEN]`: the store's persistent history, one row per change.
enum HistoryCommand {
    static let token = Placeholder("TOKEN", .wholeNumber(from: 0))

    static let command = ShellCommand(
        ".history", arguments: [.option("--since", token)],
        summary: "the store's persistent history, one row per change: transaction, timestamp, author, context, process, change, type, object, properties",
        example: ".history --since 38",
        details: """
            Reads the transactions and changes Core Data records in a store that tracks history \
            (ATRANSACTION, ACHANGE), oldest first, as NSPersistentHistoryChangeRequest.fetchHistory(after:) \
            does; with --since TOKEN, only the transactions after the one whose number is TOKEN (the \
            transaction column is the token). properties lists what an update changed, read from ZCOLUMNS; \
            where GraphStore has not established that entity's ZCOLUMNS order it shows the bytes in hex. \
            A save to such a store records its own transaction; save --without-history saves without one. \
            Nothing is written.
            """
    ) { shell, arguments in
        let store = try shell.requireStore()
        var since: HistoryToken?
        if let typed = arguments.value(of: "--since") {
            guard let number = Int64(typed), number >= 0 else { throw ShellError(".history: --since takes a transaction number (a whole number from 0), not \(typed)") }
            since = HistoryToken(transactionNumber: number)
        }
        let transactions = try store.fetchHistory(after: since)
        shell.emit(columns: ["transaction", "timestamp", "author", "context", "process", "change", "type", "object", "properties"]) { sink in
            for transaction in transactions {
                let head: [Cell] = [
                    .value(.integer(transaction.number)), .value(.date(transaction.timestamp)), text(transaction.author),
                    text(transaction.contextName), text(transaction.processID),
                ]
                if transaction.changes.isEmpty { sink.row(head + [.null, .null, .null, .null]) }
                for change in transaction.changes {
                    sink.row(head + [.value(.integer(change.number)), .text(change.changeType.description), .text(object(change)), properties(change)])
                }
            }
        }
    }

    private static func text(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }

    /// The object as other commands name it (`Item/p10`), or the entity's number and key
    /// where the model has no such entity.
    private static func object(_ change: HistoryChange) -> String {
        change.objectID?.description ?? "Z_ENT \(change.entityNumber)/\(change.primaryKey)"
    }

    private static func properties(_ change: HistoryChange) -> Cell {
        if let names = change.updatedProperties { return .text(names.joined(separator: ", ")) }
        if let raw = change.rawColumns { return .text("0x" + PropertyListText.hex(Data(raw))) }
        return .null
    }
}
