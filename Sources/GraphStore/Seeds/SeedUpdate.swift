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

        /// Whether anything changed.
        public var changedAnything: Bool { inserted + updated + linked + deleted > 0 }

        public var description: String {
            "\(inserted) inserted, \(updated) updated, \(linked) linked, \(deleted) deleted, \(skipped) unchanged"
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
        guard !context.hasChanges else { throw SeedError("\(name): the store has unsaved changes; save or rollback first") }
        let keys = try NaturalKeys(parsing: keyWords, model: context.store.model)
        let index = NaturalKeyIndex(context: context, keys: keys)
        var outcome = Outcome()
        do {
            for step in steps { try apply(step, context: context, index: index, keys: keys, name: name, outcome: &outcome) }
            if dryRun {
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

    private func apply(_ step: Step, context: ManagedObjectContext, index: NaturalKeyIndex, keys: NaturalKeys, name: String, outcome: inout Outcome) throws {
        func fail(_ why: String) -> SeedError { SeedError("\(name):\(step.line): \(step.verb.rawValue) \(step.entity): \(why)") }
        let model = context.store.model
        guard model.entity(named: step.entity) != nil else { throw fail("no entity \(step.entity)") }
        guard let keyAttribute = keys.attribute(of: step.entity) else { throw fail("no natural key (the # keys: line names none for it)") }
        guard case .text(let key)? = step.fields.first(where: { $0.name == keyAttribute })?.value else {
            throw fail("the step has no \(keyAttribute), its natural key")
        }
        let others = step.fields.filter { $0.name != keyAttribute }
        let existing = try index.object(of: step.entity, key: key)
        switch step.verb {
        case .insert:
            guard existing == nil else {
                outcome.skipped += 1
                return
            }
            let object = try context.insert(step.entity)
            try set(object, [(keyAttribute, .text(key))] + others, model: model, fail: fail)
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
            try index.remove(existing)
            try context.delete(existing)
            outcome.deleted += 1
        }
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
