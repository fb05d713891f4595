// Runs each benchmark with GraphStore and raw SQLite side by side.
//
//     swift run -c release graphstore-benchmarks [wordlist|phases|fetch …]
import Foundation

let all: [String: () throws -> Void] = [
    "wordlist": WordList.run,
    "phases": Phases.run,
    "fetch": FetchBenchmark.run,
    "validate": Validate.run,
    "undo": UndoBenchmark.run,
]
// One side of the fetch benchmark in a process of its own (for its peak memory).
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "fetch-child" {
    do {
        try FetchBenchmark.childMain(side: CommandLine.arguments[2], path: CommandLine.arguments[3])
        exit(0)
    } catch {
        print("fetch-child failed: \(error)")
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
