/// Checks the objects already in a store against the model's rules, without changing or
/// loading anything: rows are streamed one at a time, and the checks that need other rows
/// (relationship sizes, unique values, references) are answered by SQL alongside.
///
/// Each stored object is checked for what a save would check (mandatory values, bounds,
/// lengths, patterns, relationship sizes and mandatory relationships, uniqueness
/// constraints), plus what only a store can get wrong: values that cannot be read as their
/// attribute's type, and references (to-one keys, join-table rows) to objects that do not
/// exist, which a No Action delete rule or a damaged store leaves behind (133000).
/// App code (subclasses' `validateValue` and `validateFor…` overrides) is not run: rows are
/// not objects.
///
/// ```swift
/// let store = try PersistentStore(path: "Books.sqlite", model: model)
/// let summary = try StoreValidator(store: store).validate(entity: "Book", where: ObjectPredicate(format: "price < 20")) { error in
///     print(error)   // Book/p7: price 5 is below the minimum 15
/// }
/// summary.objectsChecked   // 212
/// ```
public struct StoreValidator {
    /// The store whose objects are checked.
    public let store: PersistentStore

    /// What a run checked and found.
    public struct Summary: Sendable, Hashable {
        /// How many stored objects were checked (those matching the predicate, if any).
        public var objectsChecked = 0
        /// How many failures were reported.
        public var failures = 0

        /// A summary with these counts.
        public init(objectsChecked: Int = 0, failures: Int = 0) {
            self.objectsChecked = objectsChecked
            self.failures = failures
        }
    }

    /// A validator for a store.
    public init(store: PersistentStore) {
        self.store = store
    }

    /// Checks the stored objects of an entity and its sub-entities (every entity when nil)
    /// that match `predicate` (all when nil), handing each failure to `report` as it is
    /// found, object by object in key order.
    @discardableResult
    public func validate(entity: String? = nil, where predicate: ObjectPredicate? = nil, report: (ValidationError) throws -> Void) throws -> Summary {
        try validate(entity: entity, where: predicate, scope: nil, report: report)
    }

    /// Checks only the rules `scope` names, every stored object of the entities it names;
    /// an inheritance family none of whose entities it names is not read at all.
    @discardableResult
    func validate(scope: ValidationScope, report: (ValidationError) throws -> Void) throws -> Summary {
        try validate(entity: nil, where: nil, scope: scope, report: report)
    }

    private func validate(
        entity: String?, where predicate: ObjectPredicate?, scope: ValidationScope?, report: (ValidationError) throws -> Void
    ) throws -> Summary {
        let families = try entity.map { [try store.mapping(for: $0)] } ?? store.allMappings.filter { $0.superNumber == 0 }
        var checked = 0
        var failures = 0
        for family in families {
            checked += try validate(family: family, where: predicate, scope: scope) { error in
                failures += 1
                try report(error)
            }
        }
        return Summary(objectsChecked: checked, failures: failures)
    }

    /// Validates one inheritance family; returns how many objects it checked.
    private func validate(
        family: EntityMapping, where predicate: ObjectPredicate?, scope: ValidationScope?, report: (ValidationError) throws -> Void
    ) throws -> Int {
        var checked = 0
        let members = store.family(of: family).filter { scope?.includes(entity: $0.name) ?? true }
        guard !members.isEmpty else { return 0 }
        var plans: [Int: ValidationPlan] = [:]
        for mapping in members { plans[mapping.number] = ValidationPlan(mapping: mapping, model: store.model, scope: scope) }
        let found = try findingsFromOtherRows(family: family, members: members, scope: scope)
        var cursors: [String: RelationshipCountCursor] = [:]
        for mapping in members {
            for i in plans[mapping.number]?.relationships ?? [] where mapping.relationships[i].relationship.isToMany {
                let key = cursorKey(mapping.relationships[i])
                if cursors[key] == nil, let cursor = try store.relationshipCounts(mapping.relationships[i]) { cursors[key] = cursor }
            }
        }
        try store.forEachRow(of: family) { row in
            guard let plan = plans[row.mapping.number] else { return }
            if let predicate, try !predicate.evaluate(with: StoredRowValues(row: row, store: store)) { return }
            checked += 1
            let id = store.objectID(row.mapping, primaryKey: row.primaryKey)
            var unreadable = Set<String>()
            for problem in row.problems {
                guard case .malformedValue(_, _, let key, _, let foundText, let expected) = problem,
                    scope?.includes(key, of: row.mapping.name) ?? true
                else { continue }
                unreadable.insert(key)
                try report(ValidationError(objectID: id, key: key, value: .string(foundText), rule: .readable(expected: expected)))
            }
            for (i, reference) in row.externalReferences.sorted(by: { $0.key < $1.key }) where !reference.exists {
                let attribute = row.mapping.attributes[i].attribute
                guard scope?.includes(attribute.name, of: row.mapping.name) ?? true else { continue }
                unreadable.insert(attribute.name)
                try report(ValidationError(
                    objectID: id, key: attribute.name, value: .string("a reference to external data file \(reference.path), which is missing"),
                    rule: .readable(expected: attribute.type.xcodeName)))
            }
            for i in plan.attributes {
                let attribute = row.mapping.attributes[i]
                guard attribute.column != nil, !unreadable.contains(attribute.attribute.name) else { continue }
                // A value kept in an external file is read for its rules (lengths) here.
                let value = try row.attributeValue(at: i)
                if let rule = try AttributeRules.brokenRule(value, of: attribute.attribute) {
                    try report(ValidationError(objectID: id, key: attribute.attribute.name, value: value, rule: rule))
                }
            }
            for i in plan.relationships {
                let relationship = row.mapping.relationships[i]
                let count: Int
                if relationship.relationship.isToMany {
                    guard let cursor = cursors[cursorKey(relationship)] else { continue }
                    count = try cursor.count(of: row.primaryKey)
                } else {
                    guard case .foreignKey = relationship.storage else { continue }
                    count = row.toOne[i] == nil ? 0 : 1
                }
                if let rule = RelationshipRules.brokenRule(count: count, of: relationship.relationship) {
                    try report(ValidationError(
                        objectID: id, key: relationship.relationship.name, value: RelationshipRules.value(count: count, of: relationship.relationship), rule: rule))
                }
            }
            for finding in found[row.primaryKey] ?? [] {
                try report(ValidationError(
                    objectID: id, key: finding.key, value: finding.value, rule: finding.rule, relatedObjects: finding.related))
            }
        }
        return checked
    }

    /// A failure found by SQL over other rows, waiting for its object's turn in the stream.
    private struct Finding {
        var key: String
        var value: AttributeValue?
        var rule: ValidationRule
        var related: [ObjectID]
    }

    /// Duplicated unique values and dangling references of a family's objects, by key.
    /// Only failures are held, never the rows.
    private func findingsFromOtherRows(family: EntityMapping, members: [EntityMapping], scope: ValidationScope?) throws -> [Int64: [Finding]] {
        var found: [Int64: [Finding]] = [:]
        let numbers = Set(family.numbersWithDescendants)
        // Constraints declared by the family's entities or inherited from above it.
        let declaring = store.model.ancestry(of: family.name) + store.model.selfAndDescendants(of: family.name).dropFirst()
        let checksConstraints = scope.map { scope in members.contains { scope.constraints.contains($0.name) } } ?? true
        for entity in declaring where checksConstraints {
            guard let scope = try? store.mapping(for: entity.name) else { continue }
            for keys in entity.uniquenessConstraints where !keys.isEmpty {
                for (values, rows) in try store.duplicateValues(scope, keys: keys) {
                    let holders = rows.compactMap { row in
                        store.mapping(number: row.entityNumber).map { (row, store.objectID($0, primaryKey: row.primaryKey)) }
                    }
                    let ids = holders.map(\.1)
                    let value: AttributeValue = values.count == 1 ? values[0] : .string(values.map(\.quotedInMessages).joined(separator: ", "))
                    for (row, id) in holders where numbers.contains(row.entityNumber) {
                        found[row.primaryKey, default: []].append(
                            Finding(key: keys.joined(separator: ","), value: value, rule: .unique(keys), related: ids.filter { $0 != id }))
                    }
                }
            }
        }
        for mapping in members {
            let inScope = { (r: RelationshipMapping) in scope?.includes(r.relationship.name, of: mapping.name) ?? true }
            for (i, relationship) in mapping.relationships.enumerated() where !relationship.relationship.isToMany && inScope(relationship) {
                try store.danglingReferences(mapping, relationship: i) { key, missing in
                    found[key, default: []].append(missingDestination(relationship, missing))
                }
                try store.mismatchedInverses(mapping, relationship: i) { key, destination, back in
                    found[key, default: []].append(mismatchedInverse(relationship, destination, back))
                }
            }
            // Join tables once per declaring entity (sub-entities share the declaration).
            for relationship in mapping.entity.relationships {
                guard let r = mapping.relationship(named: relationship.name), inScope(r) else { continue }
                try store.danglingJoinRows(r, sourceTable: mapping.table) { key, missing in
                    found[key, default: []].append(missingDestination(r, missing))
                }
            }
        }
        return found
    }

    private func missingDestination(_ relationship: RelationshipMapping, _ key: Int64) -> Finding {
        // A key no ID can hold is named as a key (see `KeyOutOfRange.swift`).
        let related = !ObjectID.canHold(key) ? [] : (try? store.mapping(for: relationship.relationship.destination)).map {
            [store.objectID($0, primaryKey: key)]
        } ?? []
        return Finding(key: relationship.relationship.name, value: .integer(key), rule: .existingDestination, related: related)
    }

    private func mismatchedInverse(_ relationship: RelationshipMapping, _ destination: Int64, _ back: Int64?) -> Finding {
        let r = relationship.relationship
        let destinationMapping = try? store.mapping(for: r.destination)
        let inverse = destinationMapping.flatMap { $0.relationship(named: r.inverse ?? "") }
        let backMapping = inverse.flatMap { try? store.mapping(for: $0.relationship.destination) }
        let related = [destinationMapping.map { store.objectID($0, primaryKey: destination) }]
            + [back.flatMap { key in backMapping.map { store.objectID($0, primaryKey: key) } }]
        return Finding(key: r.name, value: .integer(destination), rule: .matchingInverse(r.inverse ?? "inverse"), related: related.compactMap { $0 })
    }

    private func cursorKey(_ relationship: RelationshipMapping) -> String {
        "\(relationship.storage)"
    }
}
