import GraphStore

/// `.rows ENTITY [LIMIT]`: the raw rows of an entity's table with every column decoded.
enum RowsCommand {
    static let entity = Placeholder("ENTITY", .entity)
    static let rowLimit = Placeholder("LIMIT", .wholeNumber(from: 0))

    static let command = ShellCommand(
        ".rows", arguments: [.value(entity), .optional([.value(rowLimit)])],
        summary: "raw rows: Z_PK, Z_ENT, Z_OPT and every column decoded (dates ISO 8601, UUIDs as text, blobs as size + prefix)",
        example: ".rows Book 10"
    ) { shell, arguments in
        let mapping = try shell.mapping(try arguments.word(entity))
        let limit = arguments.number(rowLimit)
        let store = try shell.requireStore()
        let columns = mapping.rowColumns
        try shell.emit(columns: ["Z_PK", "Z_ENT", "Z_OPT"] + columns) { sink in
            try store.forEachRow(of: mapping, limit: limit) { row in
                var cells: [Cell] = [.value(.integer(row.primaryKey)), .value(.integer(Int64(row.entityNumber))), .value(.integer(row.version))]
                cells += rowCells(row, columns: columns)
                sink.row(cells)
            }
        }
    }

    /// The decoded cells of a row in the order of the requested columns; a value that
    /// cannot be decoded shows why.
    static func rowCells(_ row: StoredRow, columns: [String]) -> [Cell] {
        var byColumn: [String: Cell] = [:]
        for (i, a) in row.mapping.attributes.enumerated() {
            guard let column = a.column else { continue }
            byColumn[column] = row.attributes[i].map(Cell.value) ?? .null
        }
        for problem in row.problems {
            if case .malformedValue(_, _, _, let column, let found, let expected) = problem {
                byColumn[column] = .text("‹unreadable: \(found), expected \(expected)›")
            }
        }
        for (i, r) in row.mapping.relationships.enumerated() {
            guard case .foreignKey(let column, let entityColumn, let orderColumn) = r.storage else { continue }
            let key = row.toOne[i]
            byColumn[column] = key.map { .value(.integer($0.primaryKey)) } ?? .null
            if let entityColumn { byColumn[entityColumn] = key?.entityNumber.map { .value(.integer(Int64($0))) } ?? .null }
            if let orderColumn { byColumn[orderColumn] = key?.order.map { .value(.integer($0)) } ?? .null }
        }
        return columns.map { byColumn[$0] ?? .null }
    }
}
