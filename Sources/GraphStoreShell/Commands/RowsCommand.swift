import GraphStore

/// `.rows ENTITY|TABLE [LIMIT]`: the raw rows of an entity's table with every column
/// decoded, or of any other table of the file as stored.
enum RowsCommand {
    static let entity = Placeholder("ENTITY", .entity)
    static let table = Placeholder("TABLE", .table)
    static let rowLimit = Placeholder("LIMIT", .wholeNumber(from: 0))

    static let command = ShellCommand(
        ".rows", arguments: [.word([.placeholder(entity), .placeholder(table)]), .optional([.value(rowLimit)])],
        summary: "raw rows: Z_PK, Z_ENT, Z_OPT and every column decoded (dates ISO 8601, UUIDs as text, blobs as size + prefix)",
        example: ".rows Book 10",
        details: """
            An entity's rows are those of exactly that entity and its sub-entities, their values \
            decoded by the model. Any other table of the file is shown as stored: Z_PRIMARYKEY, \
            Z_METADATA, Z_MODELCACHE, a join table (Z_1TAGS), the persistent-history tables \
            (ATRANSACTION, ACHANGE, ATRANSACTIONSTRING); an entity's table named by its table \
            name (.rows ZBOOK) is shown as stored too. Names are matched in any case.
            """
    ) { shell, arguments in
        let name = try arguments[entity] ?? arguments.word(table)
        let limit = arguments.number(rowLimit)
        if let plain = shell.plainFile { return try rows(ofTable: name, limit: limit, in: plain, shell: shell) }
        let store = try shell.requireStore()
        guard let mapping = try? shell.mapping(name) else {
            guard store.schema.table(name) != nil else { throw unknown(name, store: store) }
            return try shell.emit(rows: { columns, row in try store.forEachRow(ofTable: name, limit: limit, columns: columns, row: row) })
        }
        // The entity's columns, then those its sub-entities add (absent on other rows).
        let columns = FetchCommand.unique(store.family(of: mapping).flatMap(\.rowColumns))
        var plans: [Int: RowCellPlan] = [:]
        // One row's cells, filled anew for each row (the writer keeps none).
        var cells: [Cell] = []
        try shell.emit(columns: ["Z_PK", "Z_ENT", "Z_OPT"] + columns) { sink in
            try store.forEachRow(of: mapping, limit: limit) { row in
                let plan: RowCellPlan
                if let known = plans[row.entityNumber] {
                    plan = known
                } else {
                    plan = RowCellPlan(mapping: row.mapping, columns: columns)
                    plans[row.entityNumber] = plan
                }
                plan.fill(&cells, from: row, shell: shell)
                sink.row(cells)
            }
        }
    }

    /// The rows of a table of a plain SQLite file, as stored.
    private static func rows(ofTable name: String, limit: Int?, in file: PlainSQLiteFile, shell: Shell) throws {
        guard file.schema.table(name) != nil else {
            let tables = file.tableNames
            throw ShellError("no table named \(name)" + Suggestion.didYouMean(name, among: tables, otherwise: "; tables: \(tables.joined(separator: ", "))"), token: name)
        }
        try shell.emit(rows: { columns, row in try file.forEachRow(ofTable: name, limit: limit, columns: columns, row: row) })
    }

    /// Neither an entity nor a table: the names it may have meant, or both lists.
    private static func unknown(_ name: String, store: PersistentStore) -> ShellError {
        let entities = store.allMappings.map(\.name)
        let entityTables = Set(store.allMappings.map { $0.table.uppercased() })
        let others = store.tableNames.filter { !entityTables.contains($0.uppercased()) }
        let lists = "; entities: \(entities.joined(separator: ", "))" + (others.isEmpty ? "" : "; other tables: \(others.joined(separator: ", "))")
        return ShellError("no entity or table named \(name)" + Suggestion.didYouMean(name, among: entities + store.tableNames, otherwise: lists), token: name)
    }
}

/// Where each column `.rows` shows comes from in the rows of one concrete entity: worked
/// out once per entity, so that a row's cells are filled by index, without a dictionary of
/// its columns per row.
struct RowCellPlan {
    /// What fills one column.
    enum Source {
        case attribute(Int)
        case toOneKey(Int)
        case toOneEntity(Int)
        case toOneOrder(Int)
        /// A column of the entity's own that holds nothing it decodes.
        case null
        /// A column of a sub-entity this row is not (empty, left out of JSON).
        case absent
    }

    let sources: [Source]
    /// The position among the shown columns of each column (for the few values that are
    /// shown in another way: an external reference, a value that cannot be read).
    let position: [String: Int]

    init(mapping: EntityMapping, columns: [String]) {
        var byColumn: [String: Source] = [:]
        for column in mapping.rowColumns { byColumn[column] = .null }
        for (i, a) in mapping.attributes.enumerated() {
            if let column = a.column { byColumn[column] = .attribute(i) }
        }
        for (i, r) in mapping.relationships.enumerated() {
            guard case .foreignKey(let column, let entityColumn, let orderColumn) = r.storage else { continue }
            byColumn[column] = .toOneKey(i)
            if let entityColumn { byColumn[entityColumn] = .toOneEntity(i) }
            if let orderColumn { byColumn[orderColumn] = .toOneOrder(i) }
        }
        sources = columns.map { byColumn[$0] ?? .absent }
        position = Dictionary(columns.enumerated().map { ($1, $0 + 3) }, uniquingKeysWith: { first, _ in first })
    }

    /// `Z_PK`, `Z_ENT`, `Z_OPT`, then the decoded cells in the order of the columns; a value
    /// that cannot be decoded shows why (counted for the command's warning), a value kept
    /// in an external data file shows the reference the row holds (the file is not read).
    func fill(_ cells: inout [Cell], from row: StoredRow, shell: Shell) {
        cells.removeAll(keepingCapacity: true)
        cells.append(.value(.integer(row.primaryKey)))
        cells.append(.value(.integer(Int64(row.entityNumber))))
        cells.append(.value(.integer(row.version)))
        for source in sources {
            switch source {
            case .attribute(let i): cells.append(row.attributes[i].map(Cell.value) ?? .null)
            case .toOneKey(let i): cells.append(row.toOne[i].map { .value(.integer($0.primaryKey)) } ?? .null)
            case .toOneEntity(let i): cells.append(row.toOne[i]?.entityNumber.map { .value(.integer(Int64($0))) } ?? .null)
            case .toOneOrder(let i): cells.append(row.toOne[i]?.order.map { .value(.integer($0)) } ?? .null)
            case .null: cells.append(.null)
            case .absent: cells.append(.absent)
            }
        }
        guard row.hasDeferredValues || !row.problems.isEmpty else { return }
        for (i, reference) in row.externalReferences {
            guard let column = row.mapping.attributes[i].column, let at = position[column] else { continue }
            cells[at] = .placeholder(text: "0x02 \(reference.name)", json: "{\"externalReference\": \(JSONText.string(reference.name))}")
        }
        for problem in row.problems {
            if case .malformedValue(_, _, _, let column, _, _) = problem, let cell = shell.unreadableCell(problem), let at = position[column] {
                cells[at] = cell
            }
        }
    }
}
