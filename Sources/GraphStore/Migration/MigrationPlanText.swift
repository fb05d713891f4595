import Foundation

extension MigrationPlan {
    /// The plan as text to read before anything is written: where the store stands, each
    /// step with each entity and property and what happens to it (and how many objects,
    /// once counted), what Core Data refuses, and a last line with the outcome.
    ///
    /// ```swift
    /// print(plan.text)
    /// // Migration of seed.sqlite from BookStore to BookStore 5 (current): 4 steps, each inferred
    /// // …
    /// ```
    public var text: String {
        var lines: [String] = []
        let subject = store.map { "Migration of \($0.path)" } ?? "Migration"
        let target = targetVersion + (targetIsCurrent ? " (current)" : "")
        lines.append("\(subject) from \(sourceVersion) to \(target): " + (steps.isEmpty ? "nothing to do" : routeText))
        lines.append("  bundle: \(bundle)")
        if let store {
            lines.append(sourceVersion == ModelVersions.storeModelName
                ? "  the store is at no version of the bundle: the migration starts from its own model, kept in Z_MODELCACHE"
                : "  the store is \(sourceVersion), found by its \(store.method.rawValue)")
            if let choice = store.choice { lines.append("  \(choice)") }
            if !store.tablesNotCarried.isEmpty, !steps.isEmpty {
                let tables = store.tablesNotCarried.joined(separator: ", ")
                lines.append("  not carried: \(store.tablesNotCarried.count == 1 ? "table" : "tables") \(tables), which the model does not describe")
            }
            if !store.frameworkTablesNotCarried.isEmpty {
                lines.append("  not carried: the framework's \(store.frameworkTablesNotCarried.joined(separator: ", ")) (persistent history), "
                    + "which a mapping model's step does not copy into its new file; the backup keeps them")
            }
        }
        lines += mappingModelLines
        if isBackward { lines.append("  \(targetVersion) comes before \(sourceVersion) in the bundle: the steps walk the versions backwards") }
        for (index, step) in steps.enumerated() {
            lines.append("")
            lines += MigrationStepText(step: step, number: index + 1).lines
        }
        let onlyCoreData = valuesOnlyCoreDataCarries
        if !onlyCoreData.isEmpty, !isRefused {
            lines.append("")
            lines.append("Core Data infers one mapping, \(sourceVersion) → \(targetVersion), which carries the store's values into "
                + "\(onlyCoreData.joined(separator: ", ")); these steps start \(onlyCoreData.count == 1 ? "it" : "them") afresh.")
        }
        let onlyTheWalk = valuesOnlyTheWalkCarries
        if !onlyTheWalk.isEmpty, !isRefused {
            lines.append("")
            lines.append("Walking every version (migrate --walk) would carry \(onlyTheWalk.joined(separator: ", ")), "
                + "through renaming identifiers that chain from version to version; Core Data's one mapping does not chain them "
                + "and starts \(onlyTheWalk.count == 1 ? "it" : "them") afresh.")
        }
        lines.append("")
        lines.append(outcome)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The mapping models looked at: the versions each fits, or why it fits none; and,
    /// where none fits a step, which a walk through the versions would meet.
    private var mappingModelLines: [String] {
        guard !mappingModels.isEmpty else { return [] }
        var lines = ["  mapping models: " + mappingModels.map { found in
            found.name + (found.source.map { " (\($0) → \(found.destination ?? "?"))" } ?? " (fits no version pair: \(found.problem ?? "?"))")
        }.joined(separator: ", ")]
        let used = Set(steps.compactMap(\.mappingModel))
        // Those a walk from the store's version would meet.
        let unused = mappingModels.filter { found in
            !used.contains(found.path) && (walk ?? []).contains { $0.source == found.source && $0.destination == found.destination }
        }
        if !unused.isEmpty {
            lines.append("  no step of this plan is " + unused.map { "\($0.source ?? "") → \($0.destination ?? "")" }.joined(separator: " or ")
                + ", so Core Data infers \(steps.count == 1 ? "it" : "them") without \(unused.count == 1 ? "that mapping model" : "those mapping models")"
                + "; migrate --walk goes through each version and meets \(unused.count == 1 ? "it" : "them")")
        }
        return lines
    }

    /// How the steps were chosen, after the plan's first line's colon.
    private var routeText: String {
        switch route {
        case .inferred where steps.first?.mappingModel != nil:
            "1 step, by a mapping model that fits it, as Core Data runs one instead of inferring" + passedOver
        case .inferred:
            "1 step, inferred as Core Data's lightweight migration infers it" + passedOver
        case .everyVersion:
            "\(quantity(steps.count, "step")) through every version, \(howEach)"
        case .through(let names):
            "\(quantity(steps.count, "step")) through \(names.joined(separator: ", ")), \(howEach)"
        }
    }

    /// How the steps of a walk are made: inferred, or by the mapping models that fit them.
    private var howEach: String {
        let mapped = steps.indices.filter { steps[$0].mappingModel != nil }.map { String($0 + 1) }
        if mapped.isEmpty { return "each inferred" }
        if mapped.count == steps.count { return "each by a mapping model" }
        return "step\(mapped.count == 1 ? "" : "s") \(mapped.joined(separator: ", ")) by mapping models, the others inferred"
    }

    /// The versions the one inferred step does not go through, when there are any.
    private var passedOver: String {
        guard let walk else { return "" }
        let names = walk.dropLast().map(\.destination)
        let between = names.count <= 3 ? names.joined(separator: ", ") : "the \(names.count) versions between"
        return ", straight to the target (not through \(between); migrate --walk goes through each version)"
    }

    /// The plan's last line: nothing to migrate, refused (at which step, with the first
    /// refusal), or can be migrated (and which values and objects are dropped).
    public var outcome: String {
        if steps.isEmpty { return "Nothing to migrate: the store is at \(targetVersion)." }
        if let index = steps.firstIndex(where: { $0.mapping.isRefused }) {
            let refusals = steps[index].mapping.refusals
            return "Refused at step \(index + 1) (\(steps[index].source) → \(steps[index].destination)): \(refusals[0])"
                + (refusals.count > 1 || refusals.count < self.refusals.count ? "; \(quantity(self.refusals.count, "refusal")) in all" : "")
        }
        var lost: [String] = []
        for (index, step) in steps.enumerated() where step.mappingModel == nil {
            for removed in step.mapping.removedEntities where (removed.objectCount ?? 1) > 0 {
                lost.append("the \(removed.objectCount.map { quantity($0, "object") } ?? "objects") of \(removed.name) (step \(index + 1))")
            }
            // A property inherited by sub-entities is named once, by the entity declaring it.
            var named: Set<String> = []
            for entity in step.mapping.entities where (entity.objectCount ?? 1) > 0 {
                for property in entity.removedProperties where named.insert("\(property.declaredBy).\(property.name)").inserted {
                    lost.append("\(property.declaredBy).\(property.name) (step \(index + 1))")
                }
            }
        }
        let what = "Can be migrated in \(quantity(steps.count, "step"))"
        let uncertain = uncertainMatches
        let caveat = uncertain == 0 ? "" : "; \(quantity(uncertain, "rename")) rest\(uncertain == 1 ? "s" : "") on a renaming identifier that names the old name (uncertain in Core Data)"
        let mapped = steps.enumerated().compactMap { index, step in
            step.mappingModel.map { "step \(index + 1) runs \(($0 as NSString).lastPathComponent)" }
        }
        let kept = mapped.isEmpty ? (lost.isEmpty ? "every value is kept" : "")
            : mapped.joined(separator: ", ") + ", which keeps what its mappings make" + (lost.isEmpty ? "" : "; ")
        return (lost.isEmpty ? "\(what); \(kept)" : "\(what); \(kept)dropped: \(lost.joined(separator: ", "))") + caveat + "."
    }

    /// The entities and properties paired by a renaming identifier that names the old
    /// element rather than sharing its identifier.
    private var uncertainMatches: Int {
        steps.reduce(0) { total, step in
            total + step.mapping.entities.reduce(0) { sum, entity in
                let matches = [entity.match] + entity.attributes.map(\.match) + entity.relationships.map(\.match)
                return sum + matches.filter { $0 == .renamingIdentifierNamesSource }.count
            }
        }
    }
}

/// "1 step", "3 steps": a number and its noun.
func quantity(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

/// The lines of one step of a plan.
struct MigrationStepText {
    let step: MigrationStep
    let number: Int

    var lines: [String] {
        let mapping = step.mapping
        var lines = ["Step \(number): \(step.source) → \(step.destination)" + (step.mappingModel.map { " (mapping model \(($0 as NSString).lastPathComponent))" } ?? "")]
        if !step.skipped.isEmpty {
            lines[0] += " (passing over \(step.skipped.joined(separator: ", ")): the same model to Core Data as \(step.source))"
        }
        if step.hasIdenticalHashes {
            lines[0] += ": the same model to Core Data (identical version hashes); only the store's metadata changes"
            return lines
        }
        if step.mappingModel != nil { return lines + mappingLines }
        // Entities that nothing happens to share one line.
        var unchanged: [String] = []
        for entity in mapping.entities {
            if let entityLines = self.lines(for: entity) {
                lines += entityLines
            } else {
                unchanged.append(entity.name + (entity.objectCount.map { " (\(quantity($0, "object")))" } ?? ""))
            }
        }
        if !unchanged.isEmpty { lines.append("  unchanged: \(unchanged.joined(separator: ", "))") }
        for removed in mapping.removedEntities {
            let objects = removed.objectCount.map { ", \(quantity($0, "object")) dropped" } ?? ", its objects dropped"
            lines.append("  \(removed.name): removed\(objects)")
        }
        for note in mapping.notes { lines.append("  note: \(note)") }
        for refusal in mapping.refusals { lines.append("  refused (\(refusal.code.rawValue)): \(refusal.place): \(refusal.reason)") }
        return lines
    }

    /// A mapping model's step: each entity mapping with its source objects, policy and the
    /// value expressions the file writes (the others copy the property of the same name).
    private var mappingLines: [String] {
        var lines: [String] = []
        switch step.mappingRun {
        case .copiesWithSQL?: lines.append("  runs as SQL: every mapping only copies values (one INSERT … SELECT per entity, keys kept)")
        case .objectByObject(let reason)?: lines.append("  runs object by object, as Core Data does: \(reason)")
        case nil: break
        }
        for mapping in step.entityMappings {
            let count = mapping.sourceEntity.flatMap { source in
                step.mapping.entities.first { $0.source == source }?.objectCount
                    ?? step.mapping.removedEntities.first { $0.name == source }?.objectCount
            }
            let source = mapping.sourceEntity.map { $0 + (count.map { " (\(quantity($0, "object")))" } ?? "") } ?? "nothing"
            var head = "  \(mapping.name): \(source) → \(mapping.kind == .remove ? "removed" : mapping.destinationEntity ?? "nothing")"
            if let filter = mapping.sourceFilter, filter != "TRUEPREDICATE" { head += " where \(filter)" }
            if let policy = mapping.policyClassName, !policy.isEmpty { head += "; policy \(policy)" }
            lines.append(head)
            guard mapping.sourceEntity != nil, mapping.kind != .remove else {
                if mapping.kind != .remove { lines.append("    makes no objects: it has no source entity") }
                continue
            }
            var copied: [String] = []
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                if let expression = property.valueExpression {
                    lines.append("    \(property.name) = \(expression)")
                } else {
                    copied.append(property.name)
                }
            }
            if !copied.isEmpty { lines.append("    by name: \(copied.joined(separator: ", "))") }
        }
        for refusal in step.mapping.refusals { lines.append("  refused (\(refusal.code.rawValue)): \(refusal.place): \(refusal.reason)") }
        return lines
    }

    /// The lines of an entity, or nil when nothing happens to it (same name, table, number
    /// and properties).
    private func lines(for entity: InferredMapping.Entity) -> [String]? {
        var head = "  \(entity.name)"
        var facts: [String] = []
        if let objects = entity.objectCount { facts.append(quantity(objects, "object")) }
        guard let source = entity.source else {
            return ["\(head): new entity (table \(entity.table))"]
        }
        if source != entity.name { facts.append("renamed from \(source) \(MigrationStepText.how(entity.match))") }
        if entity.changesTable, let table = entity.sourceTable { facts.append("table \(table) → \(entity.table)") }
        if let number = entity.sourceNumber, number != entity.number { facts.append("entity number \(number) → \(entity.number)") }
        if !facts.isEmpty { head += " (\(facts.joined(separator: "; ")))" }
        var body: [String] = []
        var kept: [String] = []
        for attribute in entity.attributes {
            let text = MigrationStepText.describe(attribute)
            if let text { body.append("    \(attribute.name): \(text)") } else { kept.append(attribute.name) }
        }
        for relationship in entity.relationships {
            let text = MigrationStepText.describe(relationship)
            if let text { body.append("    \(relationship.name): \(text)") } else { kept.append(relationship.name) }
        }
        for removed in entity.removedProperties {
            body.append("    \(removed.name): removed (\(removed.kind)); its values are dropped")
        }
        for note in entity.notes { body.append("    note: \(note)") }
        if body.isEmpty { return facts.count > (entity.objectCount == nil ? 0 : 1) ? ["\(head): properties unchanged"] : nil }
        if !kept.isEmpty { body.append("    kept: \(kept.joined(separator: ", "))") }
        return [head + ":"] + body
    }

    /// What happens to an attribute, or nil when it is kept as it is.
    static func describe(_ attribute: InferredMapping.Attribute) -> String? {
        guard attribute.source != nil else {
            return "added (\(attribute.type.xcodeName)), " + (attribute.fill.map { "starts at \($0)" } ?? "starts empty")
        }
        guard !attribute.changes.isEmpty else { return nil }
        return attribute.changes.map { describe($0, match: attribute.match, fill: attribute.fill) }.joined(separator: "; ")
    }

    /// What happens to a relationship, or nil when it is kept as it is.
    static func describe(_ relationship: InferredMapping.Relationship) -> String? {
        let shape = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
        guard relationship.source != nil else {
            return "added (\(shape) to \(relationship.destination)), starts empty; stored in \(storage(relationship.storage, ordered: relationship.isOrdered, new: true))"
        }
        var parts = relationship.changes.map { describe($0, match: relationship.match, fill: nil) }
        if relationship.changesStorage, let old = relationship.sourceStorage {
            let moves = old != relationship.storage && old != .notStored && relationship.storage != .notStored
            parts.append(
                "stored in \(storage(relationship.storage, ordered: relationship.isOrdered, new: old != relationship.storage)) (was \(storage(old, ordered: relationship.sourceIsOrdered ?? false, new: false)))"
                    + (moves ? ": its links move there" : ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private static func describe(_ change: InferredMapping.PropertyChange, match: InferredMapping.Match?, fill: AttributeValue?) -> String {
        switch change {
        case .renamed(let old): "renamed from \(old) \(how(match))"
        case .movedInHierarchy(let from, let to): "moves from \(from) to \(to)"
        case .becameRequired: "becomes required" + (fill.map { "; empty values become \($0)" } ?? "")
        case .becameOptional: "becomes optional"
        case .typeChanged(let from, let to):
            "changes type from \(from.xcodeName) to \(to.xcodeName)" + {
                switch AttributeTypeConversion.of(from, to: to) {
                case .everyValue?: " (every value converts)"
                case .valuesThatFit?: " (checked: a value the new type would not hold refuses the migration before anything is written)"
                case nil: ""
                }
            }()
        case .externalStorageChanged(true): "may now be stored outside the database"
        case .externalStorageChanged(false): "is no longer stored outside the database (such values move into the table)"
        case .becameToMany: "becomes to-many: each object's destination becomes its one member"
        case .becameToOne:
            "becomes to-one: each object's one destination is kept (an object with several would lose links, and refuses the migration with 134110 before anything is written)"
        case .becameOrdered: "becomes ordered (destinations take the order they are read in)"
        case .becameUnordered: "becomes unordered (the order is dropped)"
        case .destinationChanged(let from, let to): "destination changes from \(from) to \(to)"
        case .inverseChanged(let from, let to): "inverse changes from \(from ?? "none") to \(to ?? "none")"
        case .countChanged(let min, let max, let newMin, let newMax):
            "count bounds change from \(bounds(min, max)) to \(bounds(newMin, newMax)) (checked when objects are validated)"
        }
    }

    /// How a rename was matched.
    static func how(_ match: InferredMapping.Match?) -> String {
        switch match {
        case .renamingIdentifierNamesSource?:
            "(its renaming identifier names the old name but is not the old element's identifier; Core Data's documented rule pairs equal identifiers only, so whether Core Data carries these values is uncertain)"
        default:
            "(renaming identifier)"
        }
    }

    private static func storage(_ kind: RelationshipStorageKind, ordered: Bool, new: Bool) -> String {
        let place = switch kind {
        case .foreignKey: "a column of this entity's table"
        case .inverseForeignKey: "the inverse's column"
        case .joinTable: new ? "a new join table" : "a join table"
        case .notStored: "nothing GraphStore reads (a to-many without an inverse)"
        }
        return ordered ? place + " with an order column (Z_FOK_)" : place
    }

    private static func bounds(_ minimum: Int, _ maximum: Int) -> String {
        "\(minimum)…\(maximum == 0 ? "any" : String(maximum))"
    }
}
