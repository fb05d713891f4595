import CSQLiteRaw
import Foundation
import GraphStore

/// Migrating a 1,000,000-object store whose next version adds one attribute (with a
/// default) and renames one (through its renaming identifier), with `MigrationManager`
/// (plan, copy into a new file, count, validate what the step changes, swap; no backup), against the same copy
/// in plain SQL: `INSERT INTO new SELECT … FROM old` into an empty store of the new
/// version, through the C API. The sides alternate, in one process; each starts from a
/// fresh copy of the old store (the copying is not timed). Target ≤ 2×.
enum MigrationBenchmark {
    static let objectCount = Int(1_000_000 * benchmarkScale)

    static func makeV1() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Word") {
                AttributeDescription("text", .string)
                AttributeDescription("length", .integer64)
            }
        }
    }

    static func makeV2() throws -> ManagedObjectModel {
        var spelling = AttributeDescription("spelling", .string)
        spelling.renamingIdentifier = "text"
        return try ManagedObjectModel {
            EntityDescription("Word") {
                spelling
                AttributeDescription("length", .integer64)
                AttributeDescription("frequency", .integer32, optional: false, default: .integer(0))
            }
        }
    }

    static func run() throws {
        let (v1, v2) = (try makeV1(), try makeV2())
        print("Migration: \(objectCount) objects, one attribute added (with a default), one renamed")
        let original = try prepareStore(v1)
        let work = scratchPath("migration-work.sqlite")
        let versions = ModelVersions(path: "built", versions: [.init(name: "v1", model: v1), .init(name: "v2", model: v2)])
        var ours: [Timing] = []
        var raw: [Timing] = []
        for _ in 0..<benchmarkRuns {
            ours.append(try timed(setUp: { try fresh(original, work) }) {
                try MigrationManager(versions: versions).migrate(storeAt: work, options: .init(keepsBackup: false))
            })
            let target = scratchPath("migration-raw.sqlite")
            raw.append(try timed(setUp: {
                try fresh(original, work)
                removeStore(target)
                _ = try PersistentStore.create(at: target, model: v2)
            }) {
                try rawCopy(from: work, to: target)
            })
        }
        let median = { (timings: [Timing]) in
            Timing(wall: timings.map(\.wall).sorted()[timings.count / 2], cpu: timings.map(\.cpu).sorted()[timings.count / 2])
        }
        let (o, r) = (median(ours), median(raw))
        for (label, timing) in [("MigrationManager (plan, copy, validate, swap)", o), ("INSERT INTO new SELECT … FROM old", r)] {
            print(String(format: "  %-46@ %8.3f s wall  %8.3f s cpu  (median of %d)", label as NSString, timing.wall, timing.cpu, benchmarkRuns))
        }
        report("migrate 1M objects", ours: o, raw: r, target: 2)
        print("  wall ratio per run: \(zip(ours, raw).map { String(format: "%.2f×", $0.wall / $1.wall) }.joined(separator: " "))")
        // For scale: what validating every rule of the migrated objects would add. The
        // migration checks only the rules it changes (here none: a rename, a new attribute
        // whose default passes), so this pass is not part of the figures above.
        try fresh(original, work)
        try MigrationManager(versions: versions).migrate(storeAt: work, options: .init(keepsBackup: false))
        let validation = try timed(setUp: {}) {
            _ = try StoreValidator(store: PersistentStore(path: work, model: v2)).validate { _ in }
        }
        print(String(format: "  validating every rule of the migrated objects (not part of the migration): %.3f s wall, %.3f s cpu", validation.wall, validation.cpu))
    }

    static func timed(setUp: () throws -> Void, _ body: () throws -> Void) throws -> Timing {
        try setUp()
        let cpuStart = cpuSeconds()
        let elapsed = try ContinuousClock().measure(body)
        return Timing(
            wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu: cpuSeconds() - cpuStart)
    }

    static func fresh(_ original: String, _ work: String) throws {
        removeStore(work)
        try FileManager.default.copyItem(atPath: original, toPath: work)
    }

    /// The old store, built once: a v1 store written by GraphStore, rows inserted raw.
    static func prepareStore(_ v1: ManagedObjectModel, count objectCount: Int = objectCount) throws -> String {
        let path = scratchPath("migration-v1-\(objectCount).sqlite")
        if let store = try? PersistentStore(path: path, model: v1), (try? store.count(of: store.mapping(for: "Word"))) == objectCount {
            return path
        }
        removeStore(path)
        print("  building \(path) …")
        _ = try PersistentStore.create(at: path, model: v1)
        try exec(path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(objectCount))
            INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZTEXT) SELECT i, 1, 1, i % 17, 'word' || i FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(objectCount) WHERE Z_NAME = 'Word';
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        return path
    }

    /// The same copy in plain SQL.
    static func rawCopy(from old: String, to new: String) throws {
        try exec(new, """
            ATTACH DATABASE '\(old)' AS old;
            BEGIN;
            INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZFREQUENCY, ZSPELLING) SELECT Z_PK, Z_ENT, Z_OPT, ZLENGTH, 0, ZTEXT FROM old.ZWORD;
            UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT Z_MAX FROM old.Z_PRIMARYKEY WHERE Z_NAME = 'Word') WHERE Z_NAME = 'Word';
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }

    static func exec(_ path: String, _ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            throw BenchmarkError("\(path): \(message.map { String(cString: $0) } ?? "SQL failed")")
        }
    }
}
