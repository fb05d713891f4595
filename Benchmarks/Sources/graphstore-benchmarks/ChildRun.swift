import Foundation

/// One side of a benchmark run in a process of its own: a fresh heap and its own peak
/// resident size (`VmHWM`), so neither side inherits the other's allocations. The WordList
/// raw side, run in the same process after the GraphStore side, moved by half between runs.
struct ChildRun {
    var wall: Double
    var cpu: Double
    var peakMB: Double
    var checksum: Int

    /// Runs `graphstore-benchmarks child BENCHMARK SIDE ARGUMENT…` and reads its report.
    static func run(_ benchmark: String, _ side: String, _ arguments: [String] = []) throws -> ChildRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["child", benchmark, side] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        let fields = output.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 4, let wall = Double(fields[0]), let cpu = Double(fields[1]),
            let peak = Double(fields[2]), let checksum = Int(fields[3])
        else { throw BenchmarkError("child \(benchmark) \(side) failed: \(output)") }
        return ChildRun(wall: wall, cpu: cpu, peakMB: peak, checksum: checksum)
    }

    /// The child's side of ``run(_:_:_:)``: times `work`, then prints `wall cpu peakMB checksum`;
    /// `checksum` (not timed) is asked after `work` when `work` returns nil.
    static func report(_ work: () throws -> Int?, checksum: () throws -> Int = { 0 }) rethrows {
        let clock = ContinuousClock()
        let cpuStart = cpuSeconds()
        var result: Int?
        let elapsed = try clock.measure { result = try timedWork(work) }
        let cpu = cpuSeconds() - cpuStart
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let sum = try result ?? checksum()
        print("\(wall) \(cpu) \(peakResidentMB()) \(sum)")
    }

    /// The measured work, in a function of its own so that an instruction count can be
    /// limited to it (`count-instructions` collects inside `timedWork` only).
    @inline(never)
    static func timedWork(_ work: () throws -> Int?) rethrows -> Int? {
        try work()
    }

    /// `VmHWM` from `/proc/self/status`, in MB.
    static func peakResidentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}

/// The medians of both sides of a benchmark, each run `benchmarkRuns` times in child
/// processes, the sides alternating (so that a slow minute of the machine hits both).
struct AlternatingRuns {
    private var runs: [String: [ChildRun]] = [:]

    /// Runs `sides` in turn, `benchmarkRuns` rounds; fails if the sides' checksums differ.
    init(_ benchmark: String, sides: [String], arguments: [String] = []) throws {
        var checksums: Set<Int> = []
        for _ in 0..<benchmarkRuns {
            for side in sides {
                let run = try ChildRun.run(benchmark, side, arguments)
                runs[side, default: []].append(run)
                checksums.insert(run.checksum)
            }
        }
        guard checksums.count == 1 else { throw BenchmarkError("the sides of \(benchmark) disagree: checksums \(checksums.sorted())") }
    }

    /// The median of one figure of one side.
    func median(_ side: String, _ value: (ChildRun) -> Double) -> Double {
        let values = (runs[side] ?? []).map(value).sorted()
        return values.isEmpty ? 0 : values[values.count / 2]
    }

    /// The median timing of one side.
    func timing(_ side: String) -> Timing {
        Timing(wall: median(side, \.wall), cpu: median(side, \.cpu))
    }

    /// Each run's CPU ratio of `side` to `base`, in run order (the spread behind a median).
    func cpuRatios(_ side: String, to base: String) -> [Double] {
        zip(runs[side] ?? [], runs[base] ?? []).map { $0.cpu / $1.cpu }
    }
}
