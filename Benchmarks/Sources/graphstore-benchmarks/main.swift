// Runs each benchmark with GraphStore and raw SQLite side by side.
//
//     swift run -c release graphstore-benchmarks [wordlist|phases|fetch …]
import Foundation

let all: [String: () throws -> Void] = [
    "wordlist": WordList.run,
    "phases": Phases.run,
    "fetch": FetchBenchmark.run,
    "validate": Validate.run,
    "verify": VerifyBenchmark.run,
    "undo": UndoBenchmark.run,
    "typed": TypedBenchmark.run,
    "migration": MigrationBenchmark.run,
    "mapping-migration": MappingMigrationBenchmark.run,
    "batch": BatchBenchmark.run,
]
// One side of a benchmark in a process of its own: `child wordlist|fetch SIDE [PATH]`.
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "child" {
    let (benchmark, side) = (CommandLine.arguments[2], CommandLine.arguments[3])
    do {
        switch benchmark {
        case "wordlist": try WordList.childMain(side: side)
        case "typed-access": try TypedBenchmark.accessChild(side: side)
        case "typed-fetch" where CommandLine.arguments.count == 5: try TypedBenchmark.fetchChild(side: side, path: CommandLine.arguments[4])
        case "fetch" where CommandLine.arguments.count == 5: try FetchBenchmark.childMain(side: side, path: CommandLine.arguments[4])
        case "mapping-migration" where CommandLine.arguments.count == 5:
            try MappingMigrationBenchmark.childMain(side: side, count: Int(CommandLine.arguments[4]) ?? 0)
        default: throw BenchmarkError("unknown child: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
        }
        exit(0)
    } catch {
        print("child failed: \(error)")
        exit(1)
    }
}
let chosen = CommandLine.arguments.dropFirst().isEmpty ? all.keys.sorted() : Array(CommandLine.arguments.dropFirst())
do {
    for name in chosen {
        guard let benchmark = all[name] else {
            print("unknown benchmark \(name); known: \(all.keys.sorted().joined(separator: ", "))")
            exit(2)
        }
        try benchmark()
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
