@testable import GraphStore

/// Compares two models entity by entity on what the store layout and the object graph
/// depend on: entities (parent, abstract), attributes (name, type, optional, transient)
/// and relationships (destination, inverse, to-many, ordered, delete rule, optional,
/// transient). Each difference is one line naming `Entity.property.field`.
enum ModelComparison {
    static func differences(_ a: ManagedObjectModel, _ b: ManagedObjectModel, names: (String, String) = ("cache", "xml")) -> [String] {
        var lines: [String] = []
        let namesA = Set(a.entities.map(\.name)), namesB = Set(b.entities.map(\.name))
        for name in namesA.subtracting(namesB).sorted() { lines.append("\(name): entity only in the \(names.0)") }
        for name in namesB.subtracting(namesA).sorted() { lines.append("\(name): entity only in the \(names.1)") }
        for name in namesA.intersection(namesB).sorted() {
            guard let x = a.entity(named: name), let y = b.entity(named: name) else { continue }
            func check<T: Equatable>(_ field: String, _ l: T, _ r: T) {
                if l != r { lines.append("\(field): \(names.0) \(l), \(names.1) \(r)") }
            }
            check("\(name).parent", x.parent ?? "-", y.parent ?? "-")
            check("\(name).abstract", x.isAbstract, y.isAbstract)
            let attributesA = Dictionary(x.attributes.map { ($0.name, $0) }, uniquingKeysWith: { l, _ in l })
            let attributesB = Dictionary(y.attributes.map { ($0.name, $0) }, uniquingKeysWith: { l, _ in l })
            check("\(name).attributes", attributesA.keys.sorted(), attributesB.keys.sorted())
            for (key, l) in attributesA.sorted(by: { $0.key < $1.key }) {
                guard let r = attributesB[key] else { continue }
                check("\(name).\(key).type", l.type.xcodeName, r.type.xcodeName)
                check("\(name).\(key).optional", l.isOptional, r.isOptional)
                check("\(name).\(key).transient", l.isTransient, r.isTransient)
            }
            let relationshipsA = Dictionary(x.relationships.map { ($0.name, $0) }, uniquingKeysWith: { l, _ in l })
            let relationshipsB = Dictionary(y.relationships.map { ($0.name, $0) }, uniquingKeysWith: { l, _ in l })
            check("\(name).relationships", relationshipsA.keys.sorted(), relationshipsB.keys.sorted())
            for (key, l) in relationshipsA.sorted(by: { $0.key < $1.key }) {
                guard let r = relationshipsB[key] else { continue }
                check("\(name).\(key).destination", l.destination, r.destination)
                check("\(name).\(key).inverse", l.inverse ?? "-", r.inverse ?? "-")
                check("\(name).\(key).toMany", l.isToMany, r.isToMany)
                check("\(name).\(key).ordered", l.isOrdered, r.isOrdered)
                check("\(name).\(key).deleteRule", l.deleteRule.xcodeName, r.deleteRule.xcodeName)
                check("\(name).\(key).optional", l.isOptional, r.isOptional)
                check("\(name).\(key).transient", l.isTransient, r.isTransient)
            }
        }
        return lines
    }
}
