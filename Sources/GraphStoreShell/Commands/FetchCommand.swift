import GraphStore

/// `fetch ENTITY [select …] [where PREDICATE] [group by …] [having …] [sort …] [limit N]
/// [offset N]`: the matching objects, one row each (object ID, attributes and to-one
/// destinations, sub-entities' too), streamed. With `select …` (and `group by`, `having`),
/// the chosen columns and aggregates instead: a dictionary fetch, one SQL query.
enum FetchCommand {
    static let command = ShellCommand(
        "fetch", arguments: FetchCommandLine.arguments,
        summary: "objects matching a predicate (NSPredicate syntax), sorted and windowed; unsaved changes included; "
            + "with select, chosen columns and aggregates, grouped",
        example: "fetch Book where price < 12 AND category.name BEGINSWITH[c] 'fic' sort title desc limit 10",
        details: """
            select ITEM, … prints chosen columns instead of objects (a dictionary fetch, one SQL query): key paths \
            through to-one relationships (category.name) and aggregates count(), count(KEY), sum(KEY), avg(KEY), \
            min(KEY), max(KEY); select distinct drops repeated rows. group by KEY, … computes the aggregates per \
            group (every key path selected must be grouped), having PREDICATE keeps the groups it matches, naming \
            aggregates as typed; sort may name them too: fetch Book select category.name, count(), avg(price) \
            group by category.name having count() > 1 sort count() desc. A string compared with a Date attribute \
            is an ISO 8601 date (date > "2010-01-01", "2010-01-01T12:30:00+02:00"), in the .tz zone when it has none.
            """
    ) { shell, arguments in
        let line = try FetchCommandLine(arguments, command: "fetch", shell: shell)
        if let select = line.select { return try emitDictionaries(line.request, select, shell: shell) }
        let request = line.request
        let context = try shell.requireContext()
        let mapping = try shell.mapping(request.entityName)
        try shell.prepareSQL(for: request, resultType: .objects)
        // The entity's properties, then those its sub-entities add (absent on other rows).
        let family = try shell.requireStore().family(of: mapping)
        let attributes = unique(family.flatMap { $0.attributes.filter { $0.column != nil }.map(\.attribute.name) })
        let toOnes = unique(family.flatMap { $0.relationships.filter { !$0.relationship.isToMany }.map(\.relationship.name) })
        // Record modes (JSON, JSONL, line) carry each object's URI beside its ID.
        let withURI = [OutputMode.json, .jsonl, .line].contains(shell.effectiveSettings.mode)
        try shell.emit(columns: ["object"] + (withURI ? ["uri"] : []) + attributes + toOnes) { sink in
            var plans = FetchCellPlans(attributes: attributes, toOnes: toOnes, withURI: withURI)
            // One row's cells, filled anew for each row (the writer keeps none).
            var cells: [Cell] = []
            // Straight from the rows when nothing unsaved can change the answer; else objects.
            let streamed = try context.enumerateStoredRows(request) { row in
                try plans.plan(for: row.mapping).fill(&cells, from: row, shell: shell)
                sink.row(cells)
            }
            guard !streamed else { return }
            try context.enumerate(request) { object in
                try plans.plan(for: object.mapping).fill(&cells, from: object, shell: shell)
                sink.row(cells)
            }
        }
    }
}

/// Where each column `fetch` shows comes from in the objects of one concrete entity, worked
/// out once per entity: a row's cells are read by index, not looked up by name.
struct FetchCellPlan {
    /// Per attribute column: its index in the entity's attributes and whether it is
    /// Transformable; nil when the entity has no such attribute (a sibling's).
    let attributes: [(index: Int, transformable: Bool)?]
    /// Per to-one column: its index in the entity's relationships; nil when it has none.
    let toOnes: [Int?]
    let withURI: Bool

    init(mapping: EntityMapping, attributes: [String], toOnes: [String], withURI: Bool) {
        self.attributes = attributes.map { key in
            mapping.attributeIndex(of: key).map { ($0, mapping.attributes[$0].attribute.type == .transformable) }
        }
        self.toOnes = toOnes.map { key in mapping.relationshipIndex(of: key).flatMap { mapping.relationships[$0].relationship.isToMany ? nil : $0 } }
        self.withURI = withURI
    }

    /// The cells of a stored row: its ID (and URI), attribute values, to-one destinations.
    func fill(_ cells: inout [Cell], from row: FetchedRow, shell: Shell) throws {
        try fill(&cells, row.objectID, value: { try row.value(at: $0) }, destination: { try row.destinationID(at: $0) }, shell: shell)
    }

    /// The cells of an object, as of its current values.
    func fill(_ cells: inout [Cell], from object: ManagedObject, shell: Shell) throws {
        let mapping = object.mapping
        try fill(
            &cells, object.objectID, value: { try object.value(forKey: mapping.attributes[$0].attribute.name) },
            destination: { try object.objectID(forKey: mapping.relationships[$0].relationship.name) }, shell: shell)
    }

    private func fill(
        _ cells: inout [Cell], _ id: ObjectID, value: (Int) throws -> AttributeValue?, destination: (Int) throws -> ObjectID?, shell: Shell
    ) throws {
        cells.removeAll(keepingCapacity: true)
        cells.append(.objectID(id))
        if withURI { cells.append(.objectURI(id)) }
        for attribute in attributes {
            guard let attribute else { cells.append(.absent); continue }
            cells.append(try shell.attributeCell(transformable: attribute.transformable) { try value(attribute.index) })
        }
        for toOne in toOnes {
            guard let toOne else { cells.append(.absent); continue }
            cells.append(try destination(toOne).map(Cell.objectID) ?? .null)
        }
    }
}

/// The cell plan of each concrete entity a fetch has met.
struct FetchCellPlans {
    let attributes: [String]
    let toOnes: [String]
    let withURI: Bool
    private var byEntity: [Int: FetchCellPlan] = [:]

    init(attributes: [String], toOnes: [String], withURI: Bool) {
        self.attributes = attributes
        self.toOnes = toOnes
        self.withURI = withURI
    }

    mutating func plan(for mapping: EntityMapping) -> FetchCellPlan {
        if let plan = byEntity[mapping.number] { return plan }
        let plan = FetchCellPlan(mapping: mapping, attributes: attributes, toOnes: toOnes, withURI: withURI)
        byEntity[mapping.number] = plan
        return plan
    }
}

extension FetchCommand {
    /// Names in their first order, each once.
    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// A dictionary fetch's rows: one column per selected item, an empty cell for nil.
    private static func emitDictionaries(_ request: FetchRequest<ManagedObject>, _ select: SelectClause, shell: Shell) throws {
        let context = try shell.requireContext()
        let rows: [FetchedDictionary]
        do {
            try shell.prepareSQL(for: request, resultType: .dictionary)
            rows = try context.fetchDictionaries(request)
        } catch FetchError.invalidProperty(let entity, let key, let reason) {
            // An aggregate is named as typed, not by its key in the results.
            throw FetchError.invalidProperty(entity: entity, keyPath: select.shownName(of: key), reason: reason)
        }
        // A selected Transformable attribute of the entity is shown decoded, as fetch shows it.
        let mapping = try shell.mapping(request.entityName)
        let transformable = Set(select.keys.filter { mapping.attribute(named: $0)?.attribute.type == .transformable })
        shell.emit(columns: select.columns) { sink in
            for row in rows {
                sink.row(select.keys.map { key in
                    switch row[key] {
                    case .attribute(let value)?: shell.valueCell(value, transformable: transformable.contains(key))
                    case .objectID(let id)?: .text(id.description)
                    case nil: .null
                    }
                })
            }
        }
    }
}

/// `count ENTITY [where PREDICATE] …`: how many objects match, without making them.
enum CountCommand {
    static let command = ShellCommand(
        "count", arguments: FetchCommandLine.countArguments,
        summary: "the number of objects matching a predicate (SELECT COUNT(*)); unsaved changes included",
        example: "count Book where category.name == 'Fiction'"
    ) { shell, arguments in
        let line = try FetchCommandLine(arguments, command: "count", shell: shell)
        guard line.select == nil else { throw ShellError("count: select is for fetch (fetch ENTITY select count() …)") }
        let request = line.request
        let context = try shell.requireContext()
        try shell.prepareSQL(for: request, resultType: .count)
        let count = try context.count(for: request)
        shell.emit(columns: ["count"]) { sink in sink.row([.value(.integer(Int64(count)))]) }
    }
}
