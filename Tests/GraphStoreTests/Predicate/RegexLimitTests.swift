import Foundation
import Testing

@testable import GraphStore

/// MATCHES is bounded: a pattern that needs too much work on one string is an error that
/// names the pattern and the limit (never "no match"), and the store's interrupter stops a
/// long match, inside SQL and in memory.
@Suite("MATCHES limits and interruption")
struct RegexLimitTests {
    /// Exponential backtracking on a run of `a`s; the right answer is "match" (by `a*`),
    /// but the first alternative takes ICU past any sensible budget first. Foundation's
    /// NSRegularExpression answered "no match" here, silently.
    static let pathological = "(?:(a+)+b|a*)"
    static let run = String(repeating: "a", count: 40)
    static let stepLimit = 10_000_000

    private static func limitError(_ body: () throws -> Void) -> RegexMatchError? {
        do {
            try body()
        } catch let error as RegexMatchError {
            return error
        } catch {
            Issue.record("expected a RegexMatchError, got \(type(of: error)): \(error)")
        }
        return nil
    }

    @Test("in memory, the step limit is an error naming the pattern and the limit")
    func stepLimitInMemory() throws {
        let predicate = try ObjectPredicate(format: "SELF MATCHES %@", Self.pathological)
        let error = try #require(Self.limitError { _ = try predicate.evaluate(withValue: .string(Self.run)) })
        #expect(error.reason == .stepLimit(Self.stepLimit))
        #expect(error.pattern == Self.pathological)
        #expect(error.description.contains("'\(Self.pathological)'"))
        #expect(error.description.contains("\(Self.stepLimit)"))
        #expect(!error.isInterruption)
    }

    @Test("a match that needs more backtracking memory than the limit is an error too")
    func memoryLimit() throws {
        let predicate = try ObjectPredicate(format: "SELF MATCHES 'a*'")
        let long = String(repeating: "a", count: 2_000_000)
        let error = try #require(Self.limitError { _ = try predicate.evaluate(withValue: .string(long)) })
        #expect(error.reason == .memoryLimit(8_000_000))
    }

    @Test("ordinary patterns keep NSPredicate's answers", arguments: [
        ("'ab' MATCHES 'a|ab'", true), ("'Alice' MATCHES 'l.c'", false), ("'Café' MATCHES[cd] 'cafe'", true),
        ("'a|b' MATCHES '\\\\Qa|b\\\\E'", true), ("'AbC' MATCHES[c] 'abc'", true), ("'AbC' MATCHES 'abc'", false),
        ("'😀x' MATCHES '.x'", true), ("'line\\nbreak' MATCHES 'line.break'", false), ("'' MATCHES 'a*'", true),
    ])
    func ordinaryPatterns(format: String, expected: Bool) throws {
        #expect(try ObjectPredicate(format: format).evaluate(withValue: .null) == expected)
    }

    @Test("an invalid pattern still raises as an evaluation error")
    func invalidPattern() throws {
        #expect(throws: PredicateEvaluationError.self) { try ObjectPredicate(format: "'x' MATCHES '('").evaluate(withValue: .null) }
    }

    /// A store with one person whose name is a long run of `a`.
    private static func store() throws -> (PersistentStore, ManagedObjectContext) {
        let (store, context) = try FetchFixtures.peopleStore()
        try context.insert("Person").set("name", run)
        try context.insert("Person").set("name", "bob")
        try context.save()
        return (store, ManagedObjectContext(store: store))
    }

    @Test("through SQL, the limit error comes out of the fetch as itself, not as SQLite text")
    func stepLimitInSQL() throws {
        let (store, reader) = try Self.store()
        let request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name MATCHES %@", Self.pathological))
        #expect(try store.sql(for: request).sql.contains("GS_MATCHES"), "the match runs inside SQL")
        let error = try #require(Self.limitError { _ = try reader.fetch(request) })
        #expect(error.reason == .stepLimit(Self.stepLimit))
        #expect(Self.limitError { _ = try reader.count(for: request) }?.reason == .stepLimit(Self.stepLimit))
        // The statement is usable again afterwards.
        #expect(try reader.fetch(FetchRequest(entityName: "Person", format: "name MATCHES 'b.b'")).count == 1)
    }

    /// Runs `fetch` with the store's interrupter called from another thread once a match
    /// has started: the match waits in the progress observer until the interrupt is sent.
    private static func interrupting(_ store: PersistentStore, _ fetch: () throws -> Void) -> RegexMatchError? {
        let interrupter = store.interrupter
        let interruption = store.fetchSupport.interruption
        interruption.observeProgress {
            let sent = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                interrupter.interrupt()
                sent.signal()
            }
            sent.wait()
        }
        defer { interruption.observeProgress(nil) }
        return limitError(fetch)
    }

    @Test("the store's interrupter stops a match running inside one SQL function call")
    func interruptInSQL() throws {
        let (store, reader) = try Self.store()
        let request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name MATCHES %@", Self.pathological))
        let error = Self.interrupting(store) { _ = try reader.fetch(request) }
        #expect(error?.reason == .interrupted)
        #expect(error?.isInterruption == true)
    }

    @Test("the store's interrupter stops a match evaluated in memory (an unsaved object)")
    func interruptInMemory() throws {
        let (store, reader) = try Self.store()
        try reader.insert("Person").set("name", Self.run + "a")
        let request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name MATCHES %@", Self.pathological))
        let error = Self.interrupting(store) { _ = try reader.fetch(request) }
        #expect(error?.reason == .interrupted)
    }

    @Test("an interrupt while nothing runs is forgotten, as SQLite forgets it")
    func idleInterruptIsForgotten() throws {
        let (store, reader) = try Self.store()
        store.interrupter.interrupt()
        #expect(try reader.fetch(FetchRequest(entityName: "Person", format: "name MATCHES '(a|b)+'")).count == 1)
    }

    @Test("a model's validation pattern is bounded the same way")
    func validationPattern() throws {
        var text = AttributeDescription("text", .string)
        text.regularExpression = Self.pathological
        let model = try ManagedObjectModel { EntityDescription("Note", attributes: [text]) }
        let store = try PersistentStore.create(at: try Fixtures.newStorePath(), model: model)
        let note = try ManagedObjectContext(store: store).insert("Note")
        try note.set("text", Self.run)
        let error = try #require(Self.limitError { try note.validateForInsert() })
        #expect(error.reason == .stepLimit(Self.stepLimit))
        try note.set("text", "aaa")
        try note.validateForInsert()
    }
}
