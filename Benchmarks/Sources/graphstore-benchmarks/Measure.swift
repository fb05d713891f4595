import Foundation

/// Times a block several times and keeps the median, so one slow run does not decide.
func measure(_ label: String, runs: Int = benchmarkRuns, setUp: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var seconds: [Double] = []
    for _ in 0..<runs {
        try setUp()
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let median = seconds.sorted()[seconds.count / 2]
    print(String(format: "  %-44@ %8.3f s  (median of %d)", label as NSString, median, runs))
    return median
}

/// Prints the ratio of a GraphStore figure to the raw SQLite one against a target.
func report(_ name: String, ours: Double, raw: Double, target: Double) {
    let ratio = ours / raw
    print(String(format: "  %@: %.2f× raw SQLite (target ≤ %.1f×) %@", name, ratio, target, ratio <= target ? "MET" : "NOT MET"))
}

/// A scratch directory for benchmark stores.
func scratchPath(_ name: String) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graphstore-bench", isDirectory: true)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
}

/// Removes a store and its -wal/-shm.
func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// Repetitions per measurement (`GRAPHSTORE_BENCH_RUNS`, default 5; 1 for profiling).
let benchmarkRuns = Int(ProcessInfo.processInfo.environment["GRAPHSTORE_BENCH_RUNS"] ?? "") ?? 5

/// Scales the workloads down for profiling (`GRAPHSTORE_BENCH_SCALE`, default 1).
let benchmarkScale = Double(ProcessInfo.processInfo.environment["GRAPHSTORE_BENCH_SCALE"] ?? "") ?? 1
