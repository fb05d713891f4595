import Foundation
import Testing

@testable import GraphStore

/// For every shared predicate vector whose object can be stored, the SQL fetch and the
/// in-memory evaluation over *all* the vectors' stored objects return the same objects,
/// and the vector's own object gets the vector's expected answer both ways.
@Suite("Vector differential: SQL fetch vs in-memory evaluation")
struct VectorDifferentialTests {
    struct Outcome {
        var applied = 0
        var agreed = 0
        var fullySQL = 0
        var partlyInMemory: [String] = []
        var bothRaise: [String] = []
        var excluded: [String: [String]] = [:]
    }

    @Test("every applicable vector agrees")
    func vectorsAgree() throws {
        guard let url = PredicateVectorCorpus.url else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" {
                Issue.record("the predicate vector corpus is missing and GRAPHSTORE_REQUIRE_CORPUS=1")
            } else {
                print("skipped vector differential: ../shared/corpus/predicates/vectors.jsonl is not present")
            }
            return
        }
        let vectors = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { try PredicateVector(jsonLine: String($0)) }
        let outcome = try run(vectors)
        print("vector differential: \(outcome.applied) applied, \(outcome.agreed) agreed, \(outcome.fullySQL) entirely in SQL")
        print("  partly in memory: \(outcome.partlyInMemory.joined(separator: " "))")
        print("  unknown key, raising FetchError both ways: \(outcome.bothRaise.joined(separator: " "))")
        for (reason, ids) in outcome.excluded.sorted(by: { $0.key < $1.key }) {
            print("  excluded \(ids.count) (\(reason)): \(ids.joined(separator: " "))")
        }
        #expect(outcome.applied == outcome.agreed)
        #expect(outcome.applied > 200)
    }

    func run(_ vectors: [PredicateVector]) throws -> Outcome {
        var outcome = Outcome()
        let (store, context) = try FetchFixtures.peopleStore()
        let builder = ObjectGraphBuilder(context: context)
        var stored: [String: (object: ManagedObject, dropped: [String])] = [:]
        var candidates: [(PredicateVector, ObjectPredicate)] = []
        for vector in vectors {
            guard case .result = vector.expectation else {
                outcome.excluded["expects an error", default: []].append(vector.id)
                continue
            }
            let key = "\(vector.object)"
            if stored[key] == nil { stored[key] = (try builder.insertRoot("Person", vector.object), builder.dropped) }
            let predicate = try ObjectPredicate(format: vector.format, argumentArray: vector.arguments)
            let used = KeyUsage.firstKeys(of: predicate)
            if let missing = stored[key]?.dropped.first(where: { used.contains(String($0.prefix { $0 != "." })) }) {
                outcome.excluded["uses a value the model cannot store (\(missing.prefix { $0 != "." }))", default: []].append(vector.id)
                continue
            }
            candidates.append((vector, predicate.withSubstitutionVariables(vector.variables)))
        }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let everyone = try reader.fetch("Person")
        for (vector, predicate) in candidates {
            guard let own = stored["\(vector.object)"]?.object.objectID else { continue }
            check(vector, predicate, own: own, everyone: everyone, store: store, outcome: &outcome)
        }
        return outcome
    }

    func check(_ vector: PredicateVector, _ predicate: ObjectPredicate, own: ObjectID, everyone: [ManagedObject], store: PersistentStore,
        outcome: inout Outcome, guarded: Bool = false)
    {
        let memory = Result { Set(try everyone.filter { try predicate.evaluate(with: $0) }.map(\.objectID)) }
        let request = FetchRequest(entityName: "Person", predicate: predicate)
        let sql = Result { Set(try ManagedObjectContext(store: store).fetchObjectIDs(request)) }
        switch (memory, sql) {
        case (.failure(let a as FetchError), .failure(let b as FetchError)):
            // An unknown key is an error on managed objects, both ways.
            outcome.bothRaise.append(vector.id)
            if case .unknownKeyPath(let entityA, _, let keyA) = a, case .unknownKeyPath(let entityB, _, let keyB) = b {
                #expect(entityA == entityB && keyA == keyB, "\(vector.id): \(a) vs \(b)")
            } else {
                Issue.record("\(vector.id): \(a) vs \(b)")
            }
        case (.failure(is PredicateEvaluationError), .failure(is PredicateEvaluationError)) where !guarded:
            // Arithmetic on another object's nil raises both ways: retry on the objects
            // that have the values the predicate reads.
            let keys = KeyUsage.firstKeys(of: predicate).filter { everyone.first?.mapping.attribute(named: $0) != nil }
            let guards = keys.sorted().map { ObjectPredicate.comparison(ComparisonPredicate(.keyPath([$0]), .notEqualTo, .constant(.null))) }
            check(vector, .and(guards + [predicate]), own: own, everyone: everyone, store: store, outcome: &outcome, guarded: true)
        case (.success(let expected), .success(let found)):
            outcome.applied += 1
            if (try? store.sql(for: request).inMemoryPredicate) == nil {
                outcome.fullySQL += 1
            } else {
                outcome.partlyInMemory.append(vector.id)
            }
            guard case .result(let answer) = vector.expectation else { return }
            if expected == found, expected.contains(own) == answer {
                outcome.agreed += 1
            } else {
                Issue.record("""
                    \(vector.id) `\(vector.format)`: in memory \(expected.count) objects (own: \(expected.contains(own))), \
                    SQL \(found.count) (own: \(found.contains(own))), expected own: \(answer); \
                    SQL: \((try? store.sql(for: request).description) ?? "?")
                    """)
            }
        default:
            outcome.applied += 1
            Issue.record("\(vector.id) `\(vector.format)`: in memory \(memory), SQL \(sql)")
        }
    }
}

/// The first components of the key paths a predicate reads from the evaluated object.
enum KeyUsage {
    static func firstKeys(of predicate: ObjectPredicate) -> Set<String> {
        switch predicate {
        case .constant: return []
        case .comparison(let c): return firstKeys(of: c.left).union(firstKeys(of: c.right))
        case .and(let parts), .or(let parts): return parts.reduce(into: []) { $0.formUnion(firstKeys(of: $1)) }
        case .not(let part): return firstKeys(of: part)
        }
    }

    static func firstKeys(of expression: ObjectExpression) -> Set<String> {
        switch expression {
        case .keyPath(let path): return Set(path.filter { $0 != "self" }.prefix(1))
        case .member(.evaluatedObject, let path): return Set(path.filter { $0 != "self" }.prefix(1))
        case .member(let base, _), .unary(_, let base), .cast(let base, _): return firstKeys(of: base)
        case .index(let base, .expression(let key)): return firstKeys(of: base).union(firstKeys(of: key))
        case .index(let base, _): return firstKeys(of: base)
        case .aggregate(let elements): return elements.reduce(into: []) { $0.formUnion(firstKeys(of: $1)) }
        case .arithmetic(_, let a, let b): return firstKeys(of: a).union(firstKeys(of: b))
        case .function(_, let arguments): return arguments.reduce(into: []) { $0.formUnion(firstKeys(of: $1)) }
        case .selector(let receiver, _, let arguments): return arguments.reduce(into: firstKeys(of: receiver)) { $0.formUnion(firstKeys(of: $1)) }
        case .subquery(let collection, _, _): return firstKeys(of: collection)
        case .constant, .evaluatedObject, .variable, .anyKey: return []
        }
    }
}
