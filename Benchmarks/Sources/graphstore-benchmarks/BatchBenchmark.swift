import Foundation
import GraphStore

/// Batch requests on the 1,000,000-`Word` store of ``MigrationBenchmark``: a batch update
/// (`length = 0` where `length > 8`, about half the rows) and a batch delete (the same
/// rows) through `context.execute`, against the plain SQL statements through the C API
/// (`UPDATE ZWORD SET ZLENGTH = 0, Z_OPT = Z_OPT + 1 WHERE ZLENGTH > 8`, `DELETE FROM ZWORD
/// WHERE ZLENGTH > 8`), each in one transaction, on a fresh copy of the store (the copy is
/// not timed), the sides alternating in one process. Target ≤ 1.2× the plain statement.
enum BatchBenchmark {
    static func run() throws {
        let model = try MigrationBenchmark.makeV1()
        let original = try MigrationBenchmark.prepareStore(model)
        let work = scratchPath("batch-work.sqlite")
        print("Batch requests: \(MigrationBenchmark.objectCount) Words, rows with length > 8")
        for operation in ["update", "delete"] {
            var ours: [Timing] = []
            var raw: [Timing] = []
            var counts: Set<Int> = []
            for _ in 0..<benchmarkRuns {
                ours.append(try MigrationBenchmark.timed(setUp: { try MigrationBenchmark.fresh(original, work) }) {
                    let context = ManagedObjectContext(store: try PersistentStore(path: work, model: model, readOnly: false))
                    counts.insert(try execute(operation, in: context))
                })
                raw.append(try MigrationBenchmark.timed(setUp: { try MigrationBenchmark.fresh(original, work) }) {
                    try MigrationBenchmark.exec(work, operation == "update"
                        ? "BEGIN; UPDATE ZWORD SET ZLENGTH = 0, Z_OPT = Z_OPT + 1 WHERE ZLENGTH > 8; COMMIT;"
                        : "BEGIN; DELETE FROM ZWORD WHERE ZLENGTH > 8; COMMIT;")
                })
            }
            let median = { (timings: [Timing]) in
                Timing(wall: timings.map(\.wall).sorted()[timings.count / 2], cpu: timings.map(\.cpu).sorted()[timings.count / 2])
            }
            let (o, r) = (median(ours), median(raw))
            print(String(format: "  batch %@ (%@ rows): %8.3f s wall %8.3f s cpu; plain SQL %8.3f s wall %8.3f s cpu (median of %d)",
                operation, counts.map(String.init).joined(separator: "/"), o.wall, o.cpu, r.wall, r.cpu, benchmarkRuns))
            report("batch \(operation)", ours: o, raw: r, target: 1.2)
            print("  wall ratio per run: \(zip(ours, raw).map { String(format: "%.2f×", $0.wall / $1.wall) }.joined(separator: " "))")
        }
        removeStore(work)
    }

    /// Runs the request with a count result; returns the count.
    private static func execute(_ operation: String, in context: ManagedObjectContext) throws -> Int {
        if operation == "update" {
            var request = BatchUpdateRequest(entityName: "Word")
            request.predicate = try ObjectPredicate(format: "length > 8")
            request.propertiesToUpdate = ["length": .integer(0)]
            request.resultType = .count
            return try context.execute(request).count
        }
        var request = BatchDeleteRequest(fetchRequest: try FetchRequest(entityName: "Word", format: "length > 8"))
        request.resultType = .count
        return try context.execute(request).count
    }
}
