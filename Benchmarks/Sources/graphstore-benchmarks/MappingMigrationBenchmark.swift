import Foundation
import GraphStore

/// The migration of ``MigrationBenchmark`` (1,000,000 `Word`s, `text` renamed `spelling`, a
/// `frequency` added with its default) through a mapping model, `spelling = $source.text`
/// and `length` by name, three ways: the mapping model as GraphStore runs it (it only copies,
/// so as SQL), the same mapping model object by object as Core Data runs it
/// (`copiesMappingModelsWithSQL` off), and the same step inferred (one `INSERT … SELECT`).
/// Each side runs in a child process of its own (its own peak resident size), from a fresh
/// copy of the old store, the sides alternating. Then the object-by-object side alone at a
/// quarter and at twice the size, for how its peak memory grows. Targets: ≤ 3× the inferred
/// path, peak ≤ 256 MiB at 1M objects, flat as the store grows.
enum MappingMigrationBenchmark {
    static func mappingModel(_ v1: ManagedObjectModel, _ v2: ManagedObjectModel) -> MappingModel {
        MappingModel(sourceModel: v1, destinationModel: v2, entityMappings: [
            .init(name: "WordToWord", sourceEntity: "Word", destinationEntity: "Word", attributeMappings: [
                .init(name: "spelling", valueExpression: "$source.text"), .init(name: "length"),
            ])
        ])
    }

    /// The sides: the mapping model as run by default, object by object, and inferred.
    static let sides = ["mapping", "objects", "inferred"]

    static func run() throws {
        let count = MigrationBenchmark.objectCount
        print("Migration through a mapping model: \(count) objects, spelling = $source.text, length by name, frequency its default")
        _ = try MigrationBenchmark.prepareStore(try MigrationBenchmark.makeV1(), count: count)
        let runs = try AlternatingRuns("mapping-migration", sides: sides, arguments: [String(count)])
        let labels = ["mapping": "mapping model (as SQL: it only copies)", "objects": "mapping model, object by object (3 stages)", "inferred": "inferred (INSERT … SELECT, swap)"]
        for side in sides {
            let timing = runs.timing(side)
            print(String(format: "  %-44@ %8.3f s wall  %8.3f s cpu  peak %6.1f MB  (median of %d)",
                (labels[side] ?? side) as NSString, timing.wall, timing.cpu, runs.median(side, \.peakMB), benchmarkRuns))
        }
        report("mapping model vs inferred", ours: runs.timing("mapping"), raw: runs.timing("inferred"), target: 3)
        report("object by object vs inferred", ours: runs.timing("objects"), raw: runs.timing("inferred"), target: 3)
        for side in ["mapping", "objects"] {
            print("  \(side): cpu ratio per run: \(runs.cpuRatios(side, to: "inferred").map { String(format: "%.2f×", $0) }.joined(separator: " "))")
            let peak = runs.median(side, \.peakMB)
            print(String(format: "  \(side): peak memory at %d objects: %.1f MB (target ≤ 256 MiB = 268.4 MB) %@", count, peak, peak <= 268.4 ? "MET" : "NOT MET"))
        }
        for scaled in [count / 4, count * 2] {
            _ = try MigrationBenchmark.prepareStore(try MigrationBenchmark.makeV1(), count: scaled)
            let run = try ChildRun.run("mapping-migration", "objects", [String(scaled)])
            print(String(format: "  object by object at %d objects: %.3f s wall, %.3f s cpu, peak %.1f MB", scaled, run.wall, run.cpu, run.peakMB))
        }
    }

    /// One side in a child process: `child mapping-migration mapping|objects|inferred COUNT`.
    static func childMain(side: String, count: Int) throws {
        let (v1, v2) = (try MigrationBenchmark.makeV1(), try MigrationBenchmark.makeV2())
        let original = try MigrationBenchmark.prepareStore(v1, count: count)
        let work = scratchPath("mapping-migration-work.sqlite")
        try MigrationBenchmark.fresh(original, work)
        let versions = ModelVersions(path: "built", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
        let usesMappingModel = side != "inferred"
        let candidates = usesMappingModel
            ? [MappingModelCandidate(path: "Words.xcmappingmodel", mappingModel: mappingModel(v1, v2), versions: versions)] : []
        let manager = MigrationManager(versions: versions, mappingModels: candidates)
        var options = MigrationManager.Options(keepsBackup: false)
        options.copiesMappingModelsWithSQL = side != "objects"
        try ChildRun.report {
            let outcome = try manager.migrate(storeAt: work, options: options)
            let step = outcome.plan.steps.first
            guard (step?.mappingModel != nil) == usesMappingModel else { throw BenchmarkError("the plan did not take the \(side) path") }
            if side == "mapping", case .objectByObject(let reason)? = step?.mappingRun { throw BenchmarkError("the mapping model does not run as SQL: \(reason)") }
            return outcome.objectCounts["Word"] ?? 0
        }
        removeStore(work)
    }
}
