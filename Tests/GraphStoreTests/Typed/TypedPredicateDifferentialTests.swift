import Foundation
import Testing
@testable import GraphStore

/// Every `#Predicate` translated to SQL fetches exactly the objects on which Swift's own
/// `Predicate.evaluate` answers true, over generated people stores (the shapes of the
/// predicate test vectors, nil wherever it can be).
@Suite struct TypedPredicateDifferentialTests {
    static let reference = Date(timeIntervalSinceReferenceDate: 1e8)
    static let predicates: [(String, Predicate<TypedPerson>)] = [
        ("age < 20", #Predicate { $0.age < 20 }),
        ("age == 0", #Predicate { $0.age == 0 }),
        ("age >= 30 && name != nil", #Predicate { $0.age >= 30 && $0.name != nil }),
        ("name == Alice || name == bob", #Predicate { $0.name == "Alice" || $0.name == "bob" }),
        ("!(age < 30)", #Predicate { !($0.age < 30) }),
        ("name == nil", #Predicate { $0.name == nil }),
        ("firstName == empty", #Predicate { $0.firstName == "" }),
        ("firstName != Alice", #Predicate { $0.firstName != "Alice" }),
        ("active", #Predicate { $0.active }),
        ("!active", #Predicate { !$0.active }),
        ("score == nil || (score ?? 0) > 1", #Predicate { $0.score == nil || ($0.score ?? 0) > 1 }),
        ("(score ?? -1) < 0", #Predicate { ($0.score ?? -1) < 0 }),
        ("name?.contains(a) ?? false", #Predicate { $0.name?.contains("a") ?? false }),
        ("name?.starts(with: A) == true", #Predicate { $0.name?.starts(with: "A") == true }),
        ("firstName.contains(li)", #Predicate { $0.firstName.contains("li") }),
        ("firstName.starts(with: empty)", #Predicate { $0.firstName.starts(with: "") }),
        ("address?.city == Paris", #Predicate { $0.address?.city == "Paris" }),
        ("address?.city != Paris", #Predicate { $0.address?.city != "Paris" }),
        ("(address?.geo?.lat ?? 0) > 10", #Predicate { ($0.address?.geo?.lat ?? 0) > 10 }),
        ("address == nil", #Predicate { $0.address == nil }),
        ("children.contains { (age ?? 0) > 10 }", #Predicate { $0.children.contains { ($0.age ?? 0) > 10 } }),
        ("children.count > 1", #Predicate { $0.children.count > 1 }),
        ("pets.isEmpty", #Predicate { $0.pets.isEmpty }),
        ("children.contains { toys.contains { name == ball } }", #Predicate { $0.children.contains { $0.toys.contains { $0.name == "ball" } } }),
        ("[5, 10, 15].contains(age)", #Predicate { [5, 10, 15].contains($0.age) }),
        ("(born ?? reference) > reference", #Predicate { ($0.born ?? reference) > reference }),
        ("pets.contains { age > 10 }", #Predicate { $0.pets.contains { $0.age > 10 } }),
        ("!children.isEmpty && age > 3", #Predicate { !$0.children.isEmpty && $0.age > 3 }),
        ("(name ?? empty) == firstName", #Predicate { ($0.name ?? "") == $0.firstName }),
        ("!(name?.contains(b) ?? true)", #Predicate { !($0.name?.contains("b") ?? true) }),
    ]

    @Test("#Predicate fetches what Predicate.evaluate says", arguments: [UInt64(1), 2, 3])
    func translationsAgreeWithSwift(seed: UInt64) throws {
        let (store, context) = try FetchFixtures.peopleStore()
        try GeneratedGraph.populate(context, people: 120, seed: seed)
        try check(store, people: 120, requireDecisions: true)
    }

    /// The same predicates over a store of the predicate test vectors' objects.
    @Test func translationsAgreeOnTheVectorsObjects() throws {
        guard let url = PredicateVectorCorpus.url else {
            if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" { Issue.record("the predicate vector corpus is missing") }
            print("skipped translationsAgreeOnTheVectorsObjects: ../shared/corpus/predicates/vectors.jsonl is not present")
            return
        }
        let vectors = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { try PredicateVector(jsonLine: String($0)) }
        let (store, context) = try FetchFixtures.peopleStore()
        let builder = ObjectGraphBuilder(context: context)
        var seen: Set<String> = []
        for vector in vectors where seen.insert("\(vector.object)").inserted { _ = try builder.insertRoot("Person", vector.object) }
        try context.save()
        try check(store, people: seen.count, requireDecisions: false)
    }

    func check(_ store: PersistentStore, people count: Int, requireDecisions: Bool) throws {
        let reader = ManagedObjectContext(store: store)
        let people = try reader.fetch(FetchRequest<TypedPerson>())
        #expect(people.count == count)
        var decisive = 0
        defer {
            print("typed predicates: \(decisive) of \(Self.predicates.count) split \(people.count) people")
            #expect(decisive >= Self.predicates.count * 2 / 3)
        }
        for (name, predicate) in Self.predicates {
            let expected = Set(try people.filter { try predicate.evaluate($0) }.map(\.objectID))
            if !expected.isEmpty && expected.count < people.count { decisive += 1 }
            let request = try FetchRequest<TypedPerson>(predicate: predicate)
            let fetched = Set(try reader.fetch(request).map(\.objectID))
            #expect(fetched == expected, "\(name): \(request.predicate?.predicateFormat ?? "")")
            // The translated tree evaluated in memory agrees too.
            let translated = try #require(request.predicate)
            let inMemory = Set(try people.filter { try translated.evaluate(with: $0) }.map(\.objectID))
            #expect(inMemory == expected, "\(name) in memory: \(translated.predicateFormat)")
            #expect(!requireDecisions || !expected.isEmpty && expected.count < people.count || name.contains("starts(with: empty)"), "\(name) decides nothing: \(expected.count) of \(people.count)")
        }
    }
}
