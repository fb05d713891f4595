import Foundation

/// What changed between two stores of one model, object by object, matched by natural key
/// (``NaturalKeys``) — not by `Z_PK`, which two stores give the same object differently.
/// An entity without a key is matched by `Z_PK`, and ``warnings`` says so.
///
/// ```swift
/// let diff = try StoreDiff(old: oldContext, new: newContext, keys: keys)
/// for change in diff.changes { print(change.kind, change.entity, change.key) }
/// let script = try diff.verifiedUpdateScript(header: "seed 1 → seed 2", old: oldContext, new: newContext)
/// ```
public struct StoreDiff {
    /// One object added, removed or changed.
    public struct Change: Sendable {
        /// What happened to the object.
        public enum Kind: String, Sendable {
            case added, removed, changed
        }

        /// What happened.
        public var kind: Kind
        /// The object's entity (its own, not an ancestor).
        public var entity: String
        /// Its natural key's text (or `p` and its `Z_PK`).
        public var key: String
        /// The properties that differ (for an added object: every property it has; for a
        /// removed one: none), with the old and new values.
        public var properties: [(name: String, old: SeedRecord.Field, new: SeedRecord.Field)]
    }

    /// The changes, entity by entity (in the model's order), then by key.
    public private(set) var changes: [Change] = []
    /// Entities matched by `Z_PK` for want of a natural key: unsafe between stores built apart.
    public private(set) var warnings: [String] = []
    /// Why the changes cannot be written as a seed update, found while comparing (objects
    /// no key names, keys two objects share); ``updateScript(header:)`` adds the rest.
    public private(set) var scriptProblems: [ScriptProblem] = []
    /// The keys objects were matched by.
    public let keys: NaturalKeys
    private let model: ManagedObjectModel

    /// Compares the objects of two contexts (normally on two stores of the same model).
    public init(old: ManagedObjectContext, new: ManagedObjectContext, keys: NaturalKeys) throws {
        self.keys = keys
        model = new.store.model
        for entity in model.entitiesInNumberingOrder where !entity.isAbstract {
            let (_, before) = try SeedExporter(context: old, keys: keys).snapshot(of: entity.name, exactEntity: true, namingUnkeyed: true)
            let (_, after) = try SeedExporter(context: new, keys: keys).snapshot(of: entity.name, exactEntity: true, namingUnkeyed: true)
            let count = changes.count
            compare(entity.name, before: before, after: after)
            let changed = changes.count > count
            guard let key = keys.text(of: entity.name) else {
                if !(before.isEmpty && after.isEmpty) {
                    warnings.append("\(entity.name) has no natural key: matched by Z_PK, which two stores built apart give different objects (give --key \(entity.name)=ATTRIBUTE)")
                }
                if changed { problem(entity.name, "has no natural key to name its objects by in a script (give --key \(entity.name)=ATTRIBUTE, or several joined by +)") }
                continue
            }
            for (side, objects) in [("old", before), ("new", after)] {
                if let unnamed = objects.first(where: { !$0.isNamed }) {
                    let count = objects.filter { !$0.isNamed }.count
                    problem(entity.name, "\(count) object\(count == 1 ? " has" : "s have") no \(key) in the \(side) store (\(unnamed.identity) is one): no key names \(count == 1 ? "it" : "them")")
                }
                let shared = Dictionary(grouping: objects.filter(\.isNamed), by: \.identity).filter { $0.value.count > 1 }
                if let first = shared.keys.min() {
                    problem(entity.name, "\(shared.count) key\(shared.count == 1 ? " is" : "s are") shared by several objects in the \(side) store (\(key) \(first) by \(shared[first]?.count ?? 0)): a key must name one object")
                }
            }
        }
    }

    private mutating func compare(_ entity: String, before: [SeedExporter.Snapshot], after: [SeedExporter.Snapshot]) {
        let oldByKey = Dictionary(before.map { ($0.identity, $0.record) }, uniquingKeysWith: { first, _ in first })
        let newByKey = Dictionary(after.map { ($0.identity, $0.record) }, uniquingKeysWith: { first, _ in first })
        for object in after {
            guard let previous = oldByKey[object.identity] else {
                changes.append(Change(kind: .added, entity: entity, key: object.identity, properties: object.record.fields.map { ($0.name, .null, $0.value) }))
                continue
            }
            let was = Dictionary(previous.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            let differing = object.record.fields.compactMap { field -> (name: String, old: SeedRecord.Field, new: SeedRecord.Field)? in
                let old = was[field.name] ?? .null
                return old == field.value ? nil : (field.name, old, field.value)
            }
            if !differing.isEmpty { changes.append(Change(kind: .changed, entity: entity, key: object.identity, properties: differing)) }
        }
        for object in before where newByKey[object.identity] == nil {
            changes.append(Change(kind: .removed, entity: entity, key: object.identity, properties: []))
        }
    }

    private mutating func problem(_ entity: String, _ reason: String) {
        scriptProblems.append(ScriptProblem(entity: entity, reason: reason))
    }

    /// The changes as a seed update (see ``SeedUpdate``): inserts first (an entity whose key
    /// holds a to-one after that to-one's destination), then attribute changes, then links and
    /// unlinks (so destinations exist), then deletes. A to-many whose inverse is a to-one is
    /// left to that to-one, so that linking a seed object never takes a user's objects away
    /// from it. A difference no step can make (see ``ScriptRefusal``) is refused rather than
    /// left out.
    public func updateScript(header: String) throws(ScriptRefusal) -> String {
        var problems = scriptProblems
        var inserts: [(depth: Int, line: String)] = []
        var sets: [String] = []
        var links: [String] = []
        var deletes: [String] = []
        for change in changes {
            guard let parts = keys.parts(of: change.entity) else { continue }
            let fields = Dictionary(change.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var values: [String] = []
            var linked: [(String, SeedRecord.Field)] = []
            var unlinked: [(String, SeedRecord.Field)] = []
            for property in change.properties where !parts.contains(property.name) {
                guard let relationship = model.relationship(property.name, of: change.entity) else {
                    values.append("\(SeedUpdate.Step.json(property.name)): \(SeedUpdate.Step.json(property.new))")
                    continue
                }
                // Linking appends (here or through the inverse to-one): an ordered to-many whose
                // new order is not the old one less what goes, plus what comes, cannot be written.
                if relationship.isOrdered, case .keys(let old) = property.old, case .keys(let new) = property.new,
                    old.filter({ new.contains($0) }) + new.filter({ !old.contains($0) }) != new
                {
                    problems.append(ScriptProblem(entity: change.entity, reason: "\(change.entity).\(property.name) of \(change.key) is reordered; a seed update links and unlinks, it does not reorder"))
                }
                if relationship.isToMany, let inverse = relationship.inverse,
                    model.relationship(inverse, of: relationship.destination).map({ !$0.isToMany }) ?? false
                {
                    continue
                }
                guard keys.parts(of: relationship.destination) != nil else {
                    problems.append(ScriptProblem(entity: change.entity, reason: "\(change.entity).\(property.name) differs for \(change.key), but \(relationship.destination) has no natural key to name its objects by"))
                    continue
                }
                switch (property.old, property.new) {
                case (.keys(let old), .keys(let new)):
                    let added = new.filter { !old.contains($0) }
                    let removed = old.filter { !new.contains($0) }
                    if !added.isEmpty { linked.append((property.name, .keys(added))) }
                    if !removed.isEmpty { unlinked.append((property.name, .keys(removed))) }
                case (.null, .keys(let new)) where !new.isEmpty: linked.append((property.name, .keys(new)))
                case (_, .text(let key)): linked.append((property.name, .text(key)))
                case (.text(let key), .null): unlinked.append((property.name, .text(key)))
                default: continue
                }
            }
            // The key's parts as the step names the object by: for a removed object (which
            // lists no properties) and a changed one, from the key text itself.
            let keyPairs = keyFields(of: change, parts: parts, fields: fields).map { "\(SeedUpdate.Step.json($0.0)): \(SeedUpdate.Step.json($0.1))" }
            func line(_ verb: String, _ pairs: [String]) -> String { "\(verb) \(change.entity) {" + (keyPairs + pairs).joined(separator: ", ") + "}" }
            func pairs(_ list: [(String, SeedRecord.Field)]) -> [String] { list.map { "\(SeedUpdate.Step.json($0.0)): \(SeedUpdate.Step.json($0.1))" } }
            switch change.kind {
            case .added: inserts.append((keyDepth(of: change.entity), line("insert", values)))
            case .changed: if !values.isEmpty { sets.append(line("set", values)) }
            case .removed: deletes.append(line("delete", []))
            }
            if !linked.isEmpty { links.append(line("link", pairs(linked))) }
            if !unlinked.isEmpty { links.append(line("unlink", pairs(unlinked))) }
        }
        guard problems.isEmpty else { throw ScriptRefusal(problems: problems) }
        var text = "# graphstore seed update: \(header)\n# keys: \(keys.words.joined(separator: ","))\n"
        // A stable sort: within one depth, the model's order and then the key's.
        let ordered = inserts.enumerated().sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }.map(\.element.line)
        for line in ordered + sets + links + deletes { text += line + "\n" }
        return text
    }

    /// The update script, refused unless it does what it says: it is applied to `old`
    /// without saving (a dry run, rolled back) and the result compared with `new` again; any
    /// object that would still differ is named in the ``ScriptRefusal``. `old` must be a
    /// context of the old store with no unsaved changes.
    public func verifiedUpdateScript(header: String, old: ManagedObjectContext, new: ManagedObjectContext) throws -> String {
        let text = try updateScript(header: header)
        var remaining: [Change] = []
        var kept: [String] = []
        let outcome = try SeedUpdate(text: text, name: "script").apply(to: old, dryRun: true) { applied in
            remaining = try StoreDiff(old: applied, new: new, keys: keys).changes
        }
        kept = outcome.kept
        guard !remaining.isEmpty || !kept.isEmpty else { return text }
        var problems = kept.map { ScriptProblem(entity: "", reason: $0) }
        for (entity, left) in Dictionary(grouping: remaining, by: \.entity).sorted(by: { $0.key < $1.key }) {
            let first = left[0]
            let what = first.properties.first.map { " (\(first.key): \($0.name))" } ?? " (\(first.key))"
            problems.append(ScriptProblem(entity: entity, reason: "\(left.count) object\(left.count == 1 ? "" : "s") would still differ after the script\(what)"))
        }
        throw ScriptRefusal(problems: problems)
    }

    /// The key's parts of a changed object, with their values: from its properties where it
    /// lists them (an added object), else read back from its key text.
    private func keyFields(of change: Change, parts: [String], fields: [String: (name: String, old: SeedRecord.Field, new: SeedRecord.Field)]) -> [(String, SeedRecord.Field)] {
        if change.kind == .added { return parts.map { ($0, fields[$0]?.new ?? .null) } }
        guard parts.count > 1 else { return [(parts[0], .text(change.key))] }
        let texts = Self.partTexts(change.key, count: parts.count)
        return zip(parts, texts).map { ($0, $1.map(SeedRecord.Field.text) ?? .null) }
    }

    /// The part texts of a key of several parts (the JSON array ``NaturalKeyIndex`` writes).
    static func partTexts(_ key: String, count: Int) -> [String?] {
        guard let data = key.data(using: .utf8), let array = (try? JSONSerialization.jsonObject(with: data)) as? [Any], array.count == count else {
            return Array(repeating: nil, count: count)
        }
        return array.map { $0 as? String }
    }

    /// How many to-ones deep an entity's key reaches: an object is inserted after the
    /// destinations its key names.
    private func keyDepth(of entity: String, seen: Set<String> = []) -> Int {
        guard !seen.contains(entity), let parts = keys.parts(of: entity) else { return 0 }
        let destinations = parts.compactMap { model.relationship($0, of: entity)?.destination }
        return destinations.map { 1 + keyDepth(of: $0, seen: seen.union([entity])) }.max() ?? 0
    }
}

/// Why a difference cannot be written as a seed update: an entity, and the reason.
public struct ScriptProblem: Sendable, CustomStringConvertible {
    /// The entity (empty when the reason names it).
    public var entity: String
    /// Why, as a sentence.
    public var reason: String

    public var description: String { entity.isEmpty ? reason : "\(entity): \(reason)" }
}

/// A seed update refused because it would leave the stores different, with every reason.
public struct ScriptRefusal: Error, CustomStringConvertible {
    /// The reasons.
    public var problems: [ScriptProblem]

    public var description: String {
        (["no script written: it would leave the stores different"] + problems.map { "  \($0)" }).joined(separator: "\n")
    }
}
