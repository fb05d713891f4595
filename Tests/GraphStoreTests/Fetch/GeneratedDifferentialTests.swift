import Foundation
import Testing

@testable import GraphStore

/// Random predicates over a generated store (fixed seed): SQL fetch vs in-memory evaluation.
@Suite("Generated differential: SQL fetch vs in-memory evaluation")
struct GeneratedDifferentialTests {
    @Test("random predicates agree", arguments: [UInt64(1), 2, 3])
    func randomPredicates(seed: UInt64) throws {
        let (store, context) = try FetchFixtures.peopleStore()
        try GeneratedGraph.populate(context, people: 120, seed: seed)
        let reader = ManagedObjectContext(store: store)
        let people = try reader.fetch("Person")
        let employees = try reader.fetch("Employee")
        var generator = PredicateGenerator(rng: SeededGenerator(state: seed &* 7919))
        var tally = Tally()
        for round in 0..<400 {
            generator.employees = round % 4 == 0
            let entity = generator.employees ? "Employee" : "Person"
            let format = generator.predicate()
            let request = FetchRequest(entityName: entity, predicate: try ObjectPredicate(format: format))
            compare(request, format: format, objects: generator.employees ? employees : people, store: store, tally: &tally)
        }
        print("seed \(seed): \(tally.agreed) agreed, \(tally.raisedBoth) raised both ways, \(tally.inMemoryParts) with an in-memory part")
        #expect(tally.agreed > 300)
    }

    struct Tally {
        var agreed = 0
        var raisedBoth = 0
        var inMemoryParts = 0
    }

    /// SQL vs in-memory on one request. Where the fetch has an in-memory part, the memory
    /// side evaluates the SQL conjuncts first: a fetch only evaluates that part on the rows
    /// SQL returns, so it may answer where the written order would raise on other rows.
    func compare(_ request: FetchRequest<ManagedObject>, format: String, objects: [ManagedObject], store: PersistentStore, tally: inout Tally) {
        guard let predicate = request.predicate else { return }
        let generated = try? store.sql(for: request)
        var ordered = predicate
        if let residual = generated?.inMemoryPredicate {
            tally.inMemoryParts += 1
            let inMemory = Set(PredicateSQLCompiler.conjuncts(of: residual).map(\.predicateFormat))
            let conjuncts = PredicateSQLCompiler.conjuncts(of: predicate)
            ordered = .and(conjuncts.filter { !inMemory.contains($0.predicateFormat) } + conjuncts.filter { inMemory.contains($0.predicateFormat) })
        }
        let memory = Result { Set(try objects.filter { try ordered.evaluate(with: $0) }.map(\.objectID)) }
        let sql = Result { Set(try ManagedObjectContext(store: store).fetchObjectIDs(request)) }
        switch (memory, sql) {
        case (.success(let a), .success(let b)) where a == b:
            tally.agreed += 1
        case (.failure(let a), .failure(let b)) where type(of: a) == type(of: b):
            tally.raisedBoth += 1
        default:
            Issue.record("`\(format)`: in memory \(memory.map(\.count)), SQL \(sql.map(\.count)); \(generated.map(String.init(describing:)) ?? "no SQL")")
        }
    }
}
