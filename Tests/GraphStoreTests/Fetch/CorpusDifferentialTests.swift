import Foundation
import Testing

@testable import GraphStore

/// Real stores from the corpus, each opened read-only with the model the store gives
/// (its Z_MODELCACHE, or one inferred from its schema): for each entity, predicates built
/// from its own values; the SQL fetch and the in-memory evaluation must agree.
@Suite("Corpus differential: SQL fetch vs in-memory evaluation")
struct CorpusDifferentialTests {
    struct Tally {
        var stores = 0
        var entities = 0
        var predicates = 0
        var agreed = 0
        var raisedBoth = 0
    }

    @Test("predicates from real values agree on every corpus store")
    func corpusStores() throws {
        guard let corpus = try Fixtures.requireCorpus("corpusStores (fetch differential)") else { return }
        var tally = Tally()
        for path in ModelIOCorpus.stores(in: corpus) {
            guard let store = try? PersistentStore(path: path) else { continue }
            tally.stores += 1
            let context = ManagedObjectContext(store: store)
            for mapping in store.allMappings {
                guard let all = try? context.fetch(mapping.name), !all.isEmpty else { continue }
                tally.entities += 1
                // Large entities are checked on an even sample (SQL's answer restricted to it).
                let step = max(1, all.count / 400)
                let objects = stride(from: 0, to: all.count, by: step).map { all[$0] }
                for predicate in CorpusPredicates.make(for: mapping, objects: objects) {
                    compare(predicate, mapping: mapping, objects: objects, store: store, path: path, tally: &tally)
                }
            }
        }
        print("corpus differential: \(tally.stores) stores, \(tally.entities) entities, \(tally.predicates) predicates, \(tally.agreed) agreed, \(tally.raisedBoth) raised both ways")
        #expect(tally.stores >= 10)
        #expect(tally.predicates > 500)
    }

    func compare(_ predicate: ObjectPredicate, mapping: EntityMapping, objects: [ManagedObject], store: PersistentStore, path: String, tally: inout Tally) {
        tally.predicates += 1
        let memory = Result { Set(try objects.filter { try predicate.evaluate(with: $0) }.map(\.objectID)) }
        let request = FetchRequest(entityName: mapping.name, predicate: predicate)
        let sample = Set(objects.map(\.objectID))
        let sql = Result { Set(try ManagedObjectContext(store: store).fetchObjectIDs(request)).intersection(sample) }
        switch (memory, sql) {
        case (.success(let a), .success(let b)) where a == b:
            tally.agreed += 1
        case (.failure(let a), .failure(let b)) where type(of: a) == type(of: b):
            tally.raisedBoth += 1
        default:
            let name = (path as NSString).lastPathComponent
            Issue.record("\(name) \(mapping.name) `\(predicate.predicateFormat)`: in memory \(memory.map(\.count)), SQL \(sql.map(\.count)); \((try? store.sql(for: request)).map(String.init(describing:)) ?? "")")
        }
    }
}

/// A handful of predicates per entity, built from the values its objects hold.
enum CorpusPredicates {
    static func make(for mapping: EntityMapping, objects: [ManagedObject]) -> [ObjectPredicate] {
        var result: [ObjectPredicate] = []
        func add(_ format: String, _ arguments: any PredicateArgument...) {
            if let predicate = try? ObjectPredicate(format: format, argumentArray: arguments) { result.append(predicate) }
        }
        // A few properties per entity keep the run short on stores with wide entities.
        for attribute in mapping.attributes.filter({ $0.column != nil }).prefix(6) {
            let key = attribute.attribute.name
            let values = objects.compactMap { try? $0.value(forKey: key) }
            add("%K == nil", key)
            guard let pivot = values.sorted(by: { "\($0)" < "\($1)" }).dropFirst(values.count / 2).first, let first = values.first else { continue }
            add("%K == %@", key, pivot)
            add("%K != %@", key, pivot)
            add("%K IN %@", key, [pivot, first])
            add("NOT (%K == %@ OR %K == %@)", key, first, key, pivot)
            if pivot.isNumber || pivot.dateValue != nil || pivot.stringValue != nil {
                add("%K < %@", key, pivot)
                add("%K >= %@", key, pivot)
                add("%K BETWEEN %@", key, [first, pivot])
            }
            if let text = pivot.stringValue, !text.isEmpty {
                let prefix = String(text.prefix(2))
                add("%K BEGINSWITH %@", key, prefix)
                add("%K BEGINSWITH[cd] %@", key, prefix.uppercased())
                add("%K CONTAINS[c] %@", key, String(text.dropFirst(text.count / 2).prefix(3)))
                add("%K ENDSWITH %@", key, String(text.suffix(2)))
                add("%K LIKE[c] %@", key, prefix.lowercased() + "*")
                add("%K ==[cd] %@", key, text.uppercased())
                add("%K <[c] %@", key, text.lowercased())
            }
        }
        for relationship in mapping.relationships.prefix(4) {
            let key = relationship.relationship.name
            if relationship.relationship.isToMany {
                add("%K.@count > 0", key)
                add("%K.@count == 1", key)
                if let element = objects.lazy.compactMap({ try? $0.objects(forKey: key).first }).first {
                    add("%K CONTAINS %@", key, element)
                    if let (attribute, value) = anyAttribute(of: element) {
                        add("ANY %K.%K == %@", key, attribute, value)
                        add("ALL %K.%K != %@", key, attribute, value)
                        add("SUBQUERY(%K, $x, $x.%K == %@).@count == 1", key, attribute, value)
                    }
                }
            } else {
                add("%K == nil", key)
                if let destination = objects.lazy.compactMap({ try? $0.object(forKey: key) }).first {
                    add("%K == %@", key, destination)
                    add("%K != %@", key, destination)
                    if let (attribute, value) = anyAttribute(of: destination) {
                        add("%K.%K == %@", key, attribute, value)
                        add("NOT %K.%K == %@", key, attribute, value)
                    }
                }
            }
        }
        return result
    }

    /// The first stored attribute of an object that has a value.
    static func anyAttribute(of object: ManagedObject) -> (String, AttributeValue)? {
        for attribute in object.mapping.attributes where attribute.column != nil {
            if let value = try? object.value(forKey: attribute.attribute.name) { return (attribute.attribute.name, value) }
        }
        return nil
    }
}
