import Foundation

/// A seed update: steps that bring a store from one seed to the next, by natural key, each
/// guarded so that running the update twice changes nothing and a user's own objects are
/// never touched. `graphstore diff --script` writes one; `seed apply` and ``SeedInstaller``
/// run them.
///
/// The text is one step a line, `VERB ENTITY {JSON}`, the JSON object holding the key
/// attribute and the values; `#` lines are comments, and `# keys: Book=title,…` names the
/// natural keys:
///
/// ```text
/// # keys: Book=title,BookCategory=name
/// insert Book {"title": "The fourth book", "price": "12"}   # unless a book has that title
/// set Book {"title": "Dune", "price": "20"}                 # if it is there
/// link Book {"title": "The fourth book", "category": "Fiction"}
/// unlink Book {"title": "Dune", "category": "Poetry"}       # only if that is its category
/// delete Book {"title": "Old"}                              # if it is there
/// ```
///
/// A key of several parts (`# keys: Ingredient=name+recipe`) is given by each part, a to-one
/// part by its destination's key: `insert Ingredient {"name": "Salt", "recipe": "Pancakes"}`.
///
/// A delete whose delete rules would cascade to objects the update does not delete itself
/// (a user's book in a seeded category) is not done: the object is kept, and
/// ``Outcome/kept`` says which objects kept it.
public struct SeedUpdate: Sendable {
    /// One step.
    public struct Step: Sendable {
        /// What the step does.
        public enum Verb: String, Sendable {
            case insert, set, link, unlink, delete
        }

        /// What it does.
        public var verb: Verb
        /// The entity.
        public var entity: String
        /// The fields: the key attribute's, and the values to set or link, by name.
        public var fields: [(name: String, value: SeedRecord.Field)]
        /// Its line in the update.
        public var line: Int

        /// A JSON string.
        static func json(_ text: String) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }

        /// A field as JSON.
        static func json(_ field: SeedRecord.Field) -> String {
            switch field {
            case .null: "null"
            case .text(let text): json(text)
            case .keys(let list): "[" + list.map { json($0) }.joined(separator: ", ") + "]"
            }
        }
    }

    /// What applying an update did.
    public struct Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Objects inserted.
        public var inserted = 0
        /// Objects whose values changed.
        public var updated = 0
        /// Relationships linked or unlinked.
        public var linked = 0
        /// Objects deleted.
        public var deleted = 0
        /// Steps with nothing to do (already done, or their object is not there).
        public var skipped = 0
        /// Deletes not done, each as a sentence: the object would have taken objects the
        /// update does not delete (a user's own) with it by a cascade rule.
        public var kept: [String] = []

        /// Whether anything changed.
        public var changedAnything: Bool { inserted + updated + linked + deleted > 0 }

        public var description: String {
            "\(inserted) inserted, \(updated) updated, \(linked) linked, \(deleted) deleted, \(skipped) unchanged"
                + (kept.isEmpty ? "" : ", \(kept.count) kept for objects the update does not delete")
        }
    }

    /// The steps, in order.
    public var steps: [Step]
    /// The natural keys the update names objects by (`Entity=attribute` words).
    public var keyWords: [String]

    /// Reads an update's text; a line that is not a step names its number.
    public init(text: String, name: String = "update") throws(SeedError) {
        steps = []
        keyWords = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("# keys:") {
                keyWords += line.dropFirst("# keys:".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                continue
            }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            func fail(_ why: String) -> SeedError { SeedError("\(name):\(index + 1): \(why)") }
            guard parts.count == 3, let verb = Step.Verb(rawValue: parts[0]) else {
                throw fail("expected insert, set, link, unlink or delete, then ENTITY {JSON}")
            }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(parts[2].utf8))) as? [String: Any] else {
                throw fail("expected a JSON object after \(parts[0]) \(parts[1])")
            }
            var fields: [(name: String, value: SeedRecord.Field)] = []
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                if value is NSNull {
                    fields.append((key, .null))
                } else if let list = value as? [Any] {
                    fields.append((key, .keys(list.map { "\($0)" })))
                } else {
                    fields.append((key, .text((value as? String) ?? "\(value)")))
                }
            }
            steps.append(Step(verb: verb, entity: parts[1], fields: fields, line: index + 1))
        }
    }

    /// The metadata key where the seed version a store has is recorded (``SeedInstaller``,
    /// `seed apply`, `seed status`).
    public static let versionKey = "GraphStoreSeedVersion"

    /// Applies every step to a context's objects and saves once (one transaction): all of the
    /// update, or (on an error, which names the step's line) none of it. With `version`, the
    /// store's ``versionKey`` is set to it in the same transaction.
    @discardableResult
    public func apply(to context: ManagedObjectContext, name: String = "update", version: String? = nil, dryRun: Bool = false) throws -> Outcome {
        try apply(to: context, name: name, version: version, dryRun: dryRun, inspect: nil)
    }

    /// ``apply(to:name:version:dryRun:)``; a dry run calls `inspect` with the changed
    /// context before it rolls the changes back (to compare it with the store it should now match).
    func apply(
        to context: ManagedObjectContext, name: String = "update", version: String? = nil, dryRun: Bool = false,
        inspect: ((ManagedObjectContext) throws -> Void)?
    ) throws -> Outcome {
        guard !context.hasChanges else { throw SeedError("\(name): the store has unsaved changes; save or rollback first") }
        let keys = try NaturalKeys(parsing: keyWords, model: context.store.model)
        let index = NaturalKeyIndex(context: context, keys: keys)
        var outcome = Outcome()
        do {
            var deleted: Set<ObjectIdentifier>?
            for (number, step) in steps.enumerated() {
                if step.verb == .delete, deleted == nil {
                    deleted = try objectsDeleted(by: steps[number...], index: index, keys: keys, name: name)
                }
                try apply(step, context: context, index: index, keys: keys, name: name, deleted: deleted ?? [], outcome: &outcome)
            }
            if dryRun {
                try inspect?(context)
                context.rollback()
            } else if let version {
                do {
                    try context.store.transaction {
                        try context.save()
                        try context.store.setMetadataValue(version, forKey: Self.versionKey)
                    }
                } catch {
                    // The objects' rows were rolled back with the version: forget what the
                    // context believes it saved.
                    context.reset()
                    throw error
                }
            } else {
                try context.save()
            }
        } catch {
            context.rollback()
            throw error
        }
        return outcome
    }

    /// The key text a step names its object by, from the key's parts among its fields.
    private func key(of step: Step, keys: NaturalKeys, model: ManagedObjectModel, name: String) throws -> (parts: [String], text: String) {
        func fail(_ why: String) -> SeedError { SeedError("\(name):\(step.line): \(step.verb.rawValue) \(step.entity): \(why)") }
        guard model.entity(named: step.entity) != nil else { throw fail("no entity \(step.entity)") }
        guard let parts = keys.parts(of: step.entity) else { throw fail("no natural key (the # keys: line names none for it)") }
        let texts = try parts.map { part -> String? in
            switch step.fields.first(where: { $0.name == part })?.value {
            case .text(let text)?: return text
            case .null?: return nil
            case .keys?: throw fail("\(part), part of its natural key, is a list")
            case nil: throw fail("the step has no \(part), \(parts.count == 1 ? "its natural key" : "part of its natural key \(parts.joined(separator: "+"))")")
            }
        }
        guard let text = NaturalKeyIndex.keyText(parts: texts) else { throw fail("its natural key \(parts.joined(separator: "+")) has no value") }
        return (parts, text)
    }

    /// The objects the delete steps from here on name: what a cascade may take with it.
    private func objectsDeleted(by steps: ArraySlice<Step>, index: NaturalKeyIndex, keys: NaturalKeys, name: String) throws -> Set<ObjectIdentifier> {
        var found: Set<ObjectIdentifier> = []
        for step in steps where step.verb == .delete {
            let key = try key(of: step, keys: keys, model: index.context.store.model, name: name)
            if let object = try index.object(of: step.entity, key: key.text) { found.insert(ObjectIdentifier(object)) }
        }
        return found
    }

    private func apply(_ step: Step, context: ManagedObjectContext, index: NaturalKeyIndex, keys: NaturalKeys, name: String, deleted: Set<ObjectIdentifier>, outcome: inout Outcome) throws {
        func fail(_ why: String) -> SeedError { SeedError("\(name):\(step.line): \(step.verb.rawValue) \(step.entity): \(why)") }
        let model = context.store.model
        let (parts, key) = try self.key(of: step, keys: keys, model: model, name: name)
        let others = step.fields.filter { !parts.contains($0.name) }
        let existing = try index.object(of: step.entity, key: key).flatMap { $0.isDeleted ? nil : $0 }
        switch step.verb {
        case .insert:
            guard existing == nil else {
                outcome.skipped += 1
                return
            }
            let object = try context.insert(step.entity)
            for part in parts {
                let field = step.fields.first { $0.name == part }?.value ?? .null
                guard let relationship = model.relationship(part, of: step.entity) else {
                    try set(object, [(part, field)], model: model, fail: fail)
                    continue
                }
                guard case .text(let destinationKey) = field else { continue }
                guard let destination = try index.object(of: relationship.destination, key: destinationKey), !destination.isDeleted else {
                    throw fail("no \(relationship.destination) with key \(destinationKey) for \(part), part of its natural key")
                }
                try object.setObject(destination, forKey: part)
            }
            try set(object, others, model: model, fail: fail)
            try index.add(object)
            outcome.inserted += 1
        case .set:
            guard let existing else {
                outcome.skipped += 1
                return
            }
            if try set(existing, others, model: model, fail: fail) { outcome.updated += 1 } else { outcome.skipped += 1 }
        case .link, .unlink:
            guard let existing else {
                outcome.skipped += 1
                return
            }
            var changed = false
            for (property, value) in others {
                guard let relationship = model.relationship(property, of: step.entity) else { throw fail("\(step.entity) has no relationship \(property)") }
                let destinations: [ManagedObject] = try {
                    switch value {
                    case .null: return []
                    case .text(let k): return try index.object(of: relationship.destination, key: k).map { [$0] } ?? []
                    case .keys(let list): return try list.compactMap { try index.object(of: relationship.destination, key: $0) }
                    }
                }()
                if relationship.isToMany {
                    let current = try existing.objects(forKey: property)
                    for destination in destinations {
                        let holds = current.contains { $0 === destination }
                        if step.verb == .link, !holds {
                            try existing.add(destination, toKey: property)
                            changed = true
                        } else if step.verb == .unlink, holds {
                            try existing.remove(destination, fromKey: property)
                            changed = true
                        }
                    }
                } else {
                    let current = try existing.object(forKey: property)
                    if step.verb == .link, let destination = destinations.first, current !== destination {
                        try existing.setObject(destination, forKey: property)
                        changed = true
                    } else if step.verb == .unlink, let destination = destinations.first, current === destination {
                        try existing.setObject(nil, forKey: property)
                        changed = true
                    }
                }
            }
            if changed { outcome.linked += 1 } else { outcome.skipped += 1 }
        case .delete:
            guard let existing else {
                outcome.skipped += 1
                return
            }
            let taken = try cascade(from: existing, model: model).filter { !deleted.contains(ObjectIdentifier($0)) }
            guard taken.isEmpty else {
                let names = try taken.prefix(5).map { "\($0.entity.name) \(try index.keyText(of: $0) ?? "p\($0.objectID.primaryKey.map(String.init) ?? "?")")" }
                let more = taken.count > 5 ? " and \(taken.count - 5) more" : ""
                outcome.kept.append(
                    "\(name):\(step.line): \(step.entity) \(key) is kept: deleting it would also delete \(names.joined(separator: ", "))\(more) (by a cascade rule), which the update does not delete")
                return
            }
            try index.remove(existing)
            try context.delete(existing)
            outcome.deleted += 1
        }
    }

    /// The objects deleting `object` would delete too, by its cascade rules and theirs.
    private func cascade(from object: ManagedObject, model: ManagedObjectModel) throws -> [ManagedObject] {
        var found: [ManagedObject] = []
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(object)]
        var pending = [object]
        while let next = pending.popLast() {
            for relationship in model.relationships(of: next.entity.name) where relationship.deleteRule == .cascade {
                let destinations = relationship.isToMany ? try next.objects(forKey: relationship.name) : try next.object(forKey: relationship.name).map { [$0] } ?? []
                for destination in destinations where !destination.isDeleted && seen.insert(ObjectIdentifier(destination)).inserted {
                    found.append(destination)
                    pending.append(destination)
                }
            }
        }
        return found
    }

    /// Sets attribute values that differ; returns whether any did.
    @discardableResult
    private func set(_ object: ManagedObject, _ fields: [(name: String, value: SeedRecord.Field)], model: ManagedObjectModel, fail: (String) -> SeedError) throws -> Bool {
        var changed = false
        for (property, field) in fields {
            guard let attribute = model.attribute(property, of: object.entity.name) else {
                throw fail("\(object.entity.name) has no attribute \(property)")
            }
            let value: AttributeValue?
            do {
                value = try SeedValueText.value(of: field, as: attribute)
            } catch {
                throw fail("\(error)")
            }
            if try object.value(forKey: property) != value {
                try object.setValue(value, forKey: property)
                changed = true
            }
        }
        return changed
    }
}
