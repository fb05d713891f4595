import Foundation
import Testing

@testable import GraphStore

/// MATCHES and LIKE draw on one budget per operation: a pattern slow on every string of a
/// large fetch stops at the budget, naming the comparison, instead of running for minutes
/// (the issue: a MATCHES with nested stars took 30 s over 5,000 rows, each under the limit
/// one string has).
@Suite struct MatchBudgetTests {
    /// A text LIKE compares at least 20,000 times (two looks at the budget).
    static let longText = String(repeating: "a", count: 20_000)

    static func budgetError(_ body: () throws -> Void) -> MatchBudgetError? {
        do {
            try body()
        } catch let error as MatchBudgetError {
            return error
        } catch {
            Issue.record("expected a MatchBudgetError, got \(type(of: error)): \(error)")
        }
        return nil
    }

    @Test func likeOverManyStringsStopsAtTheBudget() throws {
        let predicate = try ObjectPredicate(format: "SELF LIKE '*a*b'")
        let budget = MatchBudget(steps: 50_000)
        var evaluated = 0
        let error = Self.budgetError {
            try budget.withBudget {
                for _ in 0..<100 {
                    _ = try predicate.evaluate(withValue: .string(Self.longText))
                    evaluated += 1
                }
            }
        }
        #expect(error == MatchBudgetError(operatorName: "LIKE", pattern: "*a*b", steps: 50_000))
        #expect(evaluated == 2, "each string takes 20,000 steps of the 50,000")
        #expect(error?.description.hasPrefix("LIKE '*a*b' went past the budget of one operation: 50000 steps") == true)
        // Without a budget (outside any operation) the strings are compared as before.
        #expect(try predicate.evaluate(withValue: .string(Self.longText)) == false)
    }

    @Test func matchesOverManyStringsStopsAtTheBudgetWellUnderEachStringsLimit() throws {
        let predicate = try ObjectPredicate(format: "SELF MATCHES '.*.*.*x'")
        let text = String(repeating: "a", count: 200)
        let budget = MatchBudget(steps: 100_000)
        var evaluated = 0
        let error = Self.budgetError {
            try budget.withBudget {
                for _ in 0..<1_000 {
                    _ = try predicate.evaluate(withValue: .string(text))
                    evaluated += 1
                }
            }
        }
        #expect(error?.operatorName == "MATCHES")
        #expect(error?.pattern == ".*.*.*x")
        #expect(evaluated < 1_000)
        // One string alone is well within its own limit.
        #expect(try predicate.evaluate(withValue: .string(text)) == false)
    }

    /// Through SQL the error comes out of the fetch as itself; each fetch has a budget of
    /// its own, and one given around several fetches is shared by them.
    @Test func aStoreOperationHasItsOwnBudgetOrTheOneItRunsIn() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        for _ in 0..<3 { try context.insert("Person").set("name", Self.longText) }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name LIKE '*a*b'"))
        #expect(try store.sql(for: request).sql.contains("GS_LIKE"), "the comparison runs inside SQL")
        #expect(try reader.count(for: request) == 0)
        #expect(try reader.count(for: request) == 0, "a second fetch starts with a budget of its own")
        let shared = MatchBudget(steps: 100_000)
        var counted = 0
        let error = Self.budgetError {
            try shared.withBudget {
                for _ in 0..<5 {
                    _ = try reader.count(for: request)
                    counted += 1
                }
            }
        }
        #expect(error?.operatorName == "LIKE")
        #expect(counted == 1, "three rows of 20,000 steps each: the second count spends the 100,000")
        #expect(try reader.count(for: request) == 0, "the statement runs again afterwards")
    }

    /// A long LIKE stops when the operation is interrupted, as MATCHES does.
    @Test func aLongLikeStopsWhenInterrupted() throws {
        let interruption = MatchInterruption()
        let predicate = try ObjectPredicate(format: "SELF LIKE '*a*b'")
        #expect(throws: PredicateEvaluationError.interrupted) {
            try interruption.watching {
                interruption.interrupt()
                _ = try predicate.evaluate(withValue: .string(Self.longText))
            }
        }
    }
}
