import GraphStore

/// `.entities`: one row per entity with its table, number, parent and object count.
enum EntitiesCommand {
    static let command = ShellCommand(
        ".entities", aliases: ["\\dt", ".tables"],
        summary: "list entities: entity, table, z_ent, parent, count (objects of exactly that entity)",
        example: ".entities"
    ) { shell, _ in
        let store = try shell.requireStore()
        try shell.emit(columns: ["entity", "table", "z_ent", "parent", "count"]) { sink in
            for mapping in store.allMappings {
                let parent = store.mapping(number: mapping.superNumber)?.name
                sink.row([
                    .text(mapping.name), .text(mapping.table), .value(.integer(Int64(mapping.number))),
                    parent.map(Cell.text) ?? .null, .value(.integer(Int64(try store.count(of: mapping)))),
                ])
            }
        }
    }
}
