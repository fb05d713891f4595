import Foundation

/// What to copy from one store into a new store of another model: for each destination
/// entity, the source entity whose objects it takes and, per property, the source
/// property or the value to fill in. Made by the migration layer from an inferred mapping;
/// run by ``PersistentStore/copyObjects(from:plan:progress:)``.
struct StoreCopyPlan {
    /// One destination entity.
    struct Entity {
        /// The destination entity's name.
        var name: String
        /// The source entity whose objects (exactly that entity) become this entity's.
        var source: String
        /// Destination attribute name → where its value comes from.
        var attributes: [String: AttributeSource]
        /// Destination relationship name → the source relationship it takes.
        var relationships: [String: String]
    }

    /// Where a destination attribute's value comes from.
    struct AttributeSource {
        /// The source attribute, or nil for a new attribute.
        var source: String?
        /// The value that fills an empty (or new) attribute; nil leaves it empty.
        var fill: AttributeValue?
    }

    var entities: [Entity]
    /// Whether the framework's tables (persistent history) come along. A mapping model's
    /// step does not carry them (Core Data's mapping model makes a new store).
    var carriesFrameworkTables = true

    /// Source entity name → the destination entity its objects become.
    var destinationNames: [String: String] {
        Dictionary(entities.map { ($0.source, $0.name) }, uniquingKeysWith: { a, _ in a })
    }
}

extension PersistentStore {
    /// Copies every object the plan names from `source` into this (new, empty) store, each
    /// with its `Z_PK` and `Z_OPT` kept, then the join tables, then `Z_MAX`.
    ///
    /// Persistent history, when the source keeps it, comes along (``copyFrameworkTables(of:translation:)``).
    /// SQLite streams each `INSERT … SELECT` (memory stays bounded however many rows);
    /// each entity is one transaction. Values of an attribute whose "Allows External
    /// Storage" changed are then moved into the new form, with `move`'s files
    /// (``moveExternalValues(_:of:from:move:)``). `progress` is called after each entity
    /// with the objects copied so far.
    func copyObjects(from source: PersistentStore, plan: StoreCopyPlan, move: ExternalStorageMove, progress: (Int) -> Void) throws(StoreError) {
        // The source's own private copy when it reads one, else the file as ATTACH can read it.
        let attached: (uri: String, privateCopy: String?)
        if let copy = source.privateCopy {
            attached = (copy, nil)
        } else {
            attached = try StoreFile.attachableURI(of: source.file, path: source.path)
        }
        defer { attached.privateCopy.map(StoreFile.removePrivateCopy) }
        do {
            try connection.prepare("ATTACH DATABASE ? AS src").execute([.text(attached.uri)])
        } catch {
            throw .sqlite(error)
        }
        defer { try? connection.execute("DETACH DATABASE src") }
        var copied = 0
        try translatingErrors {
            for entity in plan.entities {
                let target = try mapping(for: entity.name)
                let from = try source.mapping(for: entity.source)
                let (sql, values) = try copyStatement(entity, into: target, from: from, source: source, names: plan.destinationNames)
                try connection.transaction {
                    try connection.prepare(sql).execute(values)
                }
                try moveExternalValues(entity, of: target, from: from, move: move)
                copied += try count(of: target)
                progress(copied)
            }
            try connection.transaction {
                for (sql, values) in try joinTableStatements(plan, source: source) {
                    try connection.prepare(sql).execute(values)
                }
                try setKeyCounters(plan, source: source)
                if plan.carriesFrameworkTables {
                    try copyFrameworkTables(of: source) { entityNumberTranslation($0, source: source, names: plan.destinationNames) }
                }
            }
        }
    }

    /// `INSERT INTO <table> (…) SELECT … FROM src.<table> o WHERE Z_ENT = <source number>`.
    ///
    /// A to-one that was stored another way (a to-many become to-one, a many-to-many become
    /// one-to-many or one-to-one) takes its column from the old relationship's links, joined
    /// by the object's key: each object's one destination. That each has at most one was
    /// checked before anything was written (``objectsWithSeveralDestinations(of:in:)``).
    private func copyStatement(
        _ entity: StoreCopyPlan.Entity, into target: EntityMapping, from: EntityMapping, source: PersistentStore, names: [String: String]
    ) throws(StoreError) -> (String, [SQLiteValue]) {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var expressions = ["o.Z_PK", "\(target.number)", "o.Z_OPT"]
        var values: [SQLiteValue] = []
        var joins: [String] = []
        for attribute in target.attributes {
            guard let column = attribute.column, let origin = entity.attributes[attribute.attribute.name] else { continue }
            let old = origin.source.flatMap { from.attribute(named: $0)?.column }.map { "o.\($0)" }
            columns.append(column)
            switch (old, origin.fill) {
            case (let old?, nil): expressions.append(old)
            case (let old?, let fill?):
                expressions.append("COALESCE(\(old), ?)")
                values.append(RowCodec.encode(fill, as: attribute.attribute.type))
            case (nil, let fill?):
                expressions.append("?")
                values.append(RowCodec.encode(fill, as: attribute.attribute.type))
            case (nil, nil): expressions.append("NULL")
            }
        }
        for relationship in target.relationships {
            guard case .foreignKey(let column, let entityColumn, let orderColumn) = relationship.storage,
                let sourceName = entity.relationships[relationship.relationship.name],
                let old = toOneSource(sourceName, of: from, source: source, alias: "l\(joins.count)")
            else { continue }
            if let join = old.join { joins.append(join) }
            columns.append(column)
            expressions.append(old.destination)
            if let entityColumn {
                // Entity numbers differ between the models: translate the source's.
                columns.append(entityColumn)
                expressions.append(entityNumberTranslation(old.entityNumber, source: source, names: names))
            }
            if let orderColumn {
                columns.append(orderColumn)
                expressions.append(old.order ?? "CASE WHEN \(old.destination) IS NULL THEN NULL ELSE \(PersistentStore.position(partition: old.destination, order: "o.Z_PK")) END")
            }
        }
        let sql = "INSERT INTO \(target.table) (\(columns.joined(separator: ", "))) SELECT \(expressions.joined(separator: ", ")) FROM src.\(from.table) o \(joins.joined(separator: " ")) WHERE o.Z_ENT = \(from.number)"
        return (sql, values)
    }

    /// Where a destination to-one takes its values from, as expressions over the source row
    /// `o` (and the joined links, when it was stored another way).
    private struct ToOneSource {
        /// `LEFT JOIN (<links>) <alias> ON …`, when the old relationship was not a column of `o`.
        var join: String?
        /// The destination's key.
        var destination: String
        /// The destination's entity number in the source.
        var entityNumber: String
        /// The object's stored position among the destination's (an ordered inverse), if the source has one.
        var order: String?
    }

    /// The source of a destination to-one: the old column itself, or the old relationship's
    /// links joined by the object's key under `alias`.
    private func toOneSource(_ name: String, of from: EntityMapping, source: PersistentStore, alias: String) -> ToOneSource? {
        guard let old = from.relationship(named: name), let destination = source.mappings[old.relationship.destination] else { return nil }
        if case .foreignKey(let column, let entityColumn, let orderColumn) = old.storage {
            return ToOneSource(
                join: nil, destination: "o.\(column)",
                entityNumber: entityColumn.map { "o.\($0)" } ?? "(SELECT e.Z_ENT FROM src.\(destination.table) e WHERE e.Z_PK = o.\(column))",
                order: orderColumn.map { "o.\($0)" })
        }
        guard let links = source.links(of: name, in: from, schema: "src.") else { return nil }
        return ToOneSource(
            join: "LEFT JOIN (\(links.select)) \(alias) ON \(alias).a = o.Z_PK", destination: "\(alias).b",
            entityNumber: "(SELECT e.Z_ENT FROM \(links.destinationTable) e WHERE e.Z_PK = \(alias).b)",
            order: links.hasInverseOrder ? "\(alias).sb" : nil)
    }

    /// A new `Z_FOK_` value: the row's place within its partition, read in `order`, as Core
    /// Data numbers fresh sequences (2048, 3072, …).
    private static func position(partition: String, order: String) -> String {
        "(ROW_NUMBER() OVER (PARTITION BY \(partition) ORDER BY \(order)) + 1) * 1024"
    }

    /// A `CASE` that turns a source entity number into this store's number for the entity
    /// its objects became (`names`: source entity name → destination entity name).
    private func entityNumberTranslation(_ expression: String, source: PersistentStore, names: [String: String]) -> String {
        let cases = source.allMappings.compactMap { old in
            names[old.name].flatMap { mappings[$0] }.map { "WHEN \(old.number) THEN \($0.number)" }
        }
        return cases.isEmpty ? "NULL" : "CASE \(expression) \(cases.joined(separator: " ")) END"
    }

    /// One `INSERT … SELECT` per join table of the destination, from the links of the
    /// relationship it comes from, however that was stored (a join table, a to-one's column,
    /// a to-many's inverse column). A stored order is kept; a side that becomes ordered takes
    /// the order its links are read in, by key.
    private func joinTableStatements(_ plan: StoreCopyPlan, source: PersistentStore) throws(StoreError) -> [(String, [SQLiteValue])] {
        var done: Set<String> = []
        var statements: [(String, [SQLiteValue])] = []
        for entity in plan.entities {
            let target = try mapping(for: entity.name)
            let from = try source.mapping(for: entity.source)
            for relationship in target.relationships {
                guard case .joinTable(let join) = relationship.storage, !done.contains(join.table),
                    let sourceName = entity.relationships[relationship.relationship.name],
                    let links = source.links(of: sourceName, in: from, schema: "src.")
                else { continue }
                done.insert(join.table)
                var columns = [join.sourceColumn, join.destinationColumn]
                var expressions = ["a", "b"]
                if let order = join.orderColumn {
                    columns.append(order)
                    expressions.append(links.hasOwnerOrder ? "ra" : PersistentStore.position(partition: "a", order: "b"))
                }
                if let inverse = join.inverseOrderColumn {
                    columns.append(inverse)
                    expressions.append(links.hasInverseOrder ? "sb" : PersistentStore.position(partition: "b", order: "a"))
                }
                statements.append(("INSERT INTO \(join.table) (\(columns.joined(separator: ", "))) SELECT \(expressions.joined(separator: ", ")) FROM (\(links.select))", []))
            }
        }
        return statements
    }

    /// `Z_MAX` of each entity: the source entity's counter, and never below the largest key
    /// its table now holds, so that keys handed out later never reuse a copied one.
    private func setKeyCounters(_ plan: StoreCopyPlan, source: PersistentStore) throws {
        let update = try connection.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        for target in allMappings {
            var top: Int64 = 0
            if let origin = plan.entities.first(where: { $0.name == target.name }), let from = source.mappings[origin.source] {
                top = source.primaryKeyEntries[from.number]?.max ?? 0
            }
            if target.entity.parent == nil, case .integer(let largest)? = try connection.scalar("SELECT MAX(Z_PK) FROM \(target.table)") {
                top = max(top, largest)
            }
            try update.execute([.integer(top), .integer(Int64(target.number))])
        }
    }
}

extension PersistentStore {
    /// Creates a store of `model` at `path` holding `source`'s objects as the plan maps them,
    /// with `source`'s metadata moved to `model` (its UUID kept), and closes it with
    /// everything in the main file (no log left beside it). On failure nothing is left at
    /// `path` (the files `move` wrote are the caller's to remove).
    static func createMigrated(
        at path: String, model: ManagedObjectModel, from source: PersistentStore, plan: StoreCopyPlan, move: ExternalStorageMove,
        progress: (Int) -> Void
    ) throws(StoreError) {
        do throws(StoreError) {
            let store = try create(at: path, model: model, metadata: StoreMetadata(migrating: source.metadata, to: model))
            try store.copyObjects(from: source, plan: plan, move: move, progress: progress)
            do {
                try store.checkpoint()
            } catch {
                throw StoreError.fileSystemError(path: path, operation: "checkpoint", reason: "\(error)")
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }
}
