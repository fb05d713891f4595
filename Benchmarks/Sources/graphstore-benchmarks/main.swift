// Runs each benchmark with GraphStore and raw SQLite side by side.
//
//     swift run -c release graphstore-benchmarks [wordlist …]
import Foundation

let all: [String: () throws -> Void] = [
    "wordlist": WordList.run,
    "phases": Phases.run,
    "undo": UndoBenchmark.run,
]
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
