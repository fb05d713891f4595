import GraphStore

/// `fetch ENTITY [where PREDICATE] [sort KEY [asc|desc] [nocase], …] [limit N] [offset N]`: the matching
/// objects, one row each (object ID, attributes, to-one destinations), streamed.
enum FetchCommand {
    static let command = ShellCommand(
        "fetch", arguments: FetchCommandLine.arguments,
        summary: "objects matching a predicate (NSPredicate syntax), sorted and windowed; unsaved changes included",
        example: "fetch Book where price < 12 AND category.name BEGINSWITH[c] 'fic' sort title desc limit 10"
    ) { shell, arguments in
        let request = try FetchCommandLine(arguments, command: "fetch", shell: shell).request
        let context = try shell.requireContext()
        let mapping = try shell.mapping(request.entityName)
        try shell.prepareSQL(for: request, resultType: .objects)
        let attributes = mapping.attributes.filter { $0.column != nil }.map(\.attribute.name)
        let toOnes = mapping.relationships.filter { !$0.relationship.isToMany }.map(\.relationship.name)
        try shell.emit(columns: ["object"] + attributes + toOnes) { sink in
            try context.enumerate(request) { object in
                var cells: [Cell] = [.text(object.objectID.description)]
                for key in attributes { cells.append(try shell.attributeCell(object, key: key)) }
                for key in toOnes { cells.append(try object.objectID(forKey: key).map { .text($0.description) } ?? .null) }
                sink.row(cells)
            }
        }
    }
}

/// `count ENTITY [where PREDICATE] …`: how many objects match, without making them.
enum CountCommand {
    static let command = ShellCommand(
        "count", arguments: FetchCommandLine.arguments,
        summary: "the number of objects matching a predicate (SELECT COUNT(*)); unsaved changes included",
        example: "count Book where category.name == 'Fiction'"
    ) { shell, arguments in
        let request = try FetchCommandLine(arguments, command: "count", shell: shell).request
        let context = try shell.requireContext()
        try shell.prepareSQL(for: request, resultType: .count)
        let count = try context.count(for: request)
        shell.emit(columns: ["count"]) { sink in sink.row([.value(.integer(Int64(count)))]) }
    }
}
