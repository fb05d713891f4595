import Foundation
import GraphStore

/// The migration of ``MigrationBenchmark`` (1,000,000 `Word`s, `text` renamed `spelling`, a
/// `frequency` added with its default) through a mapping model, `spelling = $source.text`
/// and `length` by name, against the same step inferred (one `INSERT … SELECT`). Each side
/// runs in a child process of its own (its own peak resident size), from a fresh copy of the
/// old store, the sides alternating. Then the mapping side alone at a quarter and at twice
/// the size, for how its peak memory grows. Targets: ≤ 3× the inferred path, peak ≤ 256 MiB
/// at 1M objects, flat as the store grows.
enum MappingMigrationBenchmark {
    static func mappingModel(_ v1: ManagedObjectModel, _ v2: ManagedObjectModel) -> MappingModel {
        MappingModel(sourceModel: v1, destinationModel: v2, entityMappings: [
            .init(name: "WordToWord", sourceEntity: "Word", destinationEntity: "Word", attributeMappings: [
                .init(name: "spelling", valueExpression: "$source.text"), .init(name: "length"),
            ])
        ])
    }

    static func run() throws {
        let count = MigrationBenchmark.objectCount
        print("Migration through a mapping model: \(count) objects, spelling = $source.text, length by name, frequency its default")
        _ = try MigrationBenchmark.prepareStore(try MigrationBenchmark.makeV1(), count: count)
        let runs = try AlternatingRuns("mapping-migration", sides: ["mapping", "inferred"], arguments: [String(count)])
        let (mapped, inferred) = (runs.timing("mapping"), runs.timing("inferred"))
        for (label, side, timing) in [("mapping model (3 stages, validate, swap)", "mapping", mapped), ("inferred (INSERT … SELECT, swap)", "inferred", inferred)] {
            print(String(format: "  %-42@ %8.3f s wall  %8.3f s cpu  peak %6.1f MB  (median of %d)",
                label as NSString, timing.wall, timing.cpu, runs.median(side, \.peakMB), benchmarkRuns))
        }
        report("mapping model vs inferred", ours: mapped, raw: inferred, target: 3)
        print("  cpu ratio per run: \(runs.cpuRatios("mapping", to: "inferred").map { String(format: "%.2f×", $0) }.joined(separator: " "))")
        let peak = runs.median("mapping", \.peakMB)
        print(String(format: "  peak memory at %d objects: %.1f MB (target ≤ 256 MiB = 268.4 MB) %@", count, peak, peak <= 268.4 ? "MET" : "NOT MET"))
        for scaled in [count / 4, count * 2] {
            _ = try MigrationBenchmark.prepareStore(try MigrationBenchmark.makeV1(), count: scaled)
            let run = try ChildRun.run("mapping-migration", "mapping", [String(scaled)])
            print(String(format: "  mapping model at %d objects: %.3f s wall, %.3f s cpu, peak %.1f MB", scaled, run.wall, run.cpu, run.peakMB))
        }
    }

    /// One side in a child process: `child mapping-migration mapping|inferred COUNT`.
    static func childMain(side: String, count: Int) throws {
        let (v1, v2) = (try MigrationBenchmark.makeV1(), try MigrationBenchmark.makeV2())
        let original = try MigrationBenchmark.prepareStore(v1, count: count)
        let work = scratchPath("mapping-migration-work.sqlite")
        try MigrationBenchmark.fresh(original, work)
        let versions = ModelVersions(path: "built", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
        let candidates = side == "mapping"
            ? [MappingModelCandidate(path: "Words.xcmappingmodel", mappingModel: mappingModel(v1, v2), versions: versions)] : []
        let manager = MigrationManager(versions: versions, mappingModels: candidates)
        try ChildRun.report {
            let outcome = try manager.migrate(storeAt: work, options: .init(keepsBackup: false))
            guard (outcome.plan.steps.first?.mappingModel != nil) == (side == "mapping") else { throw BenchmarkError("the plan did not take the \(side) path") }
            return outcome.objectCounts["Word"] ?? 0
        }
        removeStore(work)
    }
}
