import Foundation

/// A measurement: wall-clock seconds and the CPU seconds the process used (the CPU figure
/// stays steady when other work shares the machine).
struct Timing {
    var wall: Double
    var cpu: Double
}

/// Times a block several times and keeps the medians, so one slow run does not decide.
func measure(_ label: String, runs: Int = benchmarkRuns, setUp: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Timing {
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<runs {
        try setUp()
        let cpuStart = cpuSeconds()
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        cpus.append(cpuSeconds() - cpuStart)
        walls.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let timing = Timing(wall: walls.sorted()[walls.count / 2], cpu: cpus.sorted()[cpus.count / 2])
    print(String(format: "  %-44@ %8.3f s wall  %8.3f s cpu  (median of %d)", label as NSString, timing.wall, timing.cpu, runs))
    return timing
}

/// CPU time used by the process so far (user + system).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// Prints the ratios of a GraphStore figure to the raw SQLite one against a target.
func report(_ name: String, ours: Timing, raw: Timing, target: Double) {
    let wall = ours.wall / raw.wall
    let cpu = ours.cpu / raw.cpu
    print(String(format: "  %@: %.2f× raw SQLite wall, %.2f× cpu (target ≤ %.1f×) %@", name, wall, cpu, target, wall <= target ? "MET" : "NOT MET"))
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
