import Foundation

@testable import GraphStore

/// Inserts a graph of objects described by a predicate value (a dictionary of attribute
/// values, nested dictionaries for to-one relationships, arrays of dictionaries for to-many
/// ones). Entries the model cannot hold (an array of strings, a number where the attribute
/// is a string, an unknown key) are left out and listed in `dropped`.
final class ObjectGraphBuilder {
    struct Unrepresentable: Error, CustomStringConvertible {
        var description: String
    }

    let context: ManagedObjectContext
    /// The keys left out of the last inserted graph, as key paths from its root.
    private(set) var dropped: [String] = []

    init(context: ManagedObjectContext) { self.context = context }

    /// Inserts a root object and its graph; `dropped` then lists what was left out.
    @discardableResult
    func insertRoot(_ entity: String, _ value: PredicateValue) throws -> ManagedObject {
        dropped = []
        return try insert(entity, value, path: "")
    }

    private func insert(_ entity: String, _ value: PredicateValue, path: String) throws -> ManagedObject {
        guard case .object(let source) = value, let dictionary = source as? KeyValueDictionary else {
            throw Unrepresentable(description: "\(entity) needs a dictionary, not \(value)")
        }
        let object = try context.insert(entity)
        let mapping = object.mapping
        for (key, entry) in dictionary.entries.sorted(by: { $0.key < $1.key }) {
            do {
                if let attribute = mapping.attribute(named: key) {
                    try object.setValue(try ObjectGraphBuilder.attributeValue(entry, attribute.attribute.type, key: key), forKey: key)
                } else if let relationship = mapping.relationship(named: key) {
                    try link(object, relationship.relationship, entry, path: path + key + ".")
                } else {
                    throw Unrepresentable(description: "\(entity) has no key \(key)")
                }
            } catch is Unrepresentable {
                dropped.append(path + key)
            }
        }
        return object
    }

    private func link(_ object: ManagedObject, _ relationship: RelationshipDescription, _ entry: PredicateValue, path: String) throws {
        if entry.isNull { return }
        guard relationship.isToMany else {
            try object.setObject(try insert(relationship.destination, entry, path: path), forKey: relationship.name)
            return
        }
        guard case .array(let elements) = entry else {
            throw Unrepresentable(description: "\(relationship.name) needs an array of dictionaries")
        }
        for element in elements { try object.add(try insert(relationship.destination, element, path: path), toKey: relationship.name) }
    }

    static func attributeValue(_ value: PredicateValue, _ type: AttributeType, key: String) throws -> AttributeValue? {
        if value.isNull { return nil }
        switch (type, value.attributeValue) {
        case (.string, .string(let s)?): return .string(s)
        case (.integer64, .integer(let v)?), (.integer32, .integer(let v)?), (.integer16, .integer(let v)?): return .integer(v)
        case (.integer64, .double(let v)?) where v.rounded() == v && abs(v) < 1e15: return .integer(Int64(v))
        case (.double, .double(let v)?): return .double(v)
        case (.double, .integer(let v)?): return .double(Double(v))
        case (.boolean, .bool(let v)?): return .bool(v)
        case (.date, .date(let v)?): return .date(v)
        default: throw Unrepresentable(description: "\(key) is \(type.xcodeName), which cannot hold \(value)")
        }
    }
}
