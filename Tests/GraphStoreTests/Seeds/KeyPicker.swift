import Foundation
import GraphStore

/// Natural keys for corpus stores, most of whose models have no uniqueness constraint: the
/// model's constraints where it has them, else what a test picks and says it picked.
enum KeyPicker {
    /// Keys under which every object in `contexts` has a key no other object of its entity
    /// shares. A root entity without a constraint gets the first that works of: one of its
    /// attributes, all of them, all of them and its to-ones to entities keyed by attributes
    /// alone; a sub-entity takes its parent's. `notes` says what was picked, and which
    /// entities no key fits (objects alike in every attribute).
    static func pick(_ contexts: [ManagedObjectContext], model: ManagedObjectModel) throws -> (keys: NaturalKeys, notes: [String], unkeyed: Set<String>) {
        var words: [String] = []
        var notes: [String] = []
        var byAttributes: Set<String> = []
        var decided: Set<String> = []
        let roots = model.entitiesInNumberingOrder.filter { $0.parent == nil }
        func keys(_ extra: [String] = []) -> NaturalKeys? { try? NaturalKeys(parsing: words + extra, model: model) }
        func fits(_ parts: [String], _ entity: String) -> Bool {
            guard !parts.isEmpty, let keys = keys(["\(entity)=\(parts.joined(separator: "+"))"]) else { return false }
            return isUnique(entity, keys: keys)
        }
        func isUnique(_ entity: String, keys: NaturalKeys) -> Bool {
            for context in contexts {
                let index = NaturalKeyIndex(context: context, keys: keys)
                var seen: Set<String> = []
                guard let objects = try? context.fetch(entity) else { return false }
                for object in objects {
                    guard let text = try? index.keyText(of: object), seen.insert(text).inserted else { return false }
                }
            }
            return true
        }
        for root in roots {
            guard let constraint = root.uniquenessConstraints.first else { continue }
            decided.insert(root.name)
            if constraint.allSatisfy({ model.attribute($0, of: root.name) != nil }) { byAttributes.insert(root.name) }
        }
        for pass in 0..<2 {
            for root in roots where !decided.contains(root.name) {
                let attributes = model.attributes(of: root.name).filter { !$0.isTransient }.map(\.name)
                let toOnes = model.relationships(of: root.name).filter { relationship in
                    guard !relationship.isToMany, !relationship.isTransient else { return false }
                    let destinationRoot = model.root(of: relationship.destination)?.name ?? relationship.destination
                    return byAttributes.contains(destinationRoot)
                }.map(\.name)
                let candidates = pass == 0 ? attributes.map { [$0] } + [attributes] : [attributes + toOnes]
                guard let parts = candidates.first(where: { fits($0, root.name) }) else { continue }
                words.append("\(root.name)=\(parts.joined(separator: "+"))")
                decided.insert(root.name)
                if pass == 0 { byAttributes.insert(root.name) }
            }
        }
        var unkeyed: Set<String> = []
        for entity in model.entitiesInNumberingOrder {
            let root = model.root(of: entity.name)?.name ?? entity.name
            if !decided.contains(root) { unkeyed.insert(entity.name) }
        }
        if !words.isEmpty { notes.append("picked (no uniqueness constraint): " + words.joined(separator: ",")) }
        if !unkeyed.isEmpty { notes.append("no key fits: " + unkeyed.sorted().joined(separator: ", ")) }
        return (try NaturalKeys(parsing: words, model: model), notes, unkeyed)
    }
}
