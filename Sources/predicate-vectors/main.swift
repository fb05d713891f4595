// predicate-vectors: runs a predicate vector file (JSON lines) against GraphStore's
// predicate parser, formatter and evaluator. Prints one line per failure, a count per
// construct, and "N passed, M failed"; exits 1 if any vector failed.
import Foundation
import GraphStore

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: predicate-vectors VECTORS.jsonl\n".utf8))
    exit(2)
}

let report: PredicateVectorSuite.Report
do {
    report = try PredicateVectorSuite.run(fileAt: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("predicate-vectors: cannot read \(path): \(error)\n".utf8))
    exit(2)
}

for failure in report.failures {
    print("FAIL \(failure.id): \(failure.reason)")
}
print("by construct:")
let width = report.constructs.map(\.name.count).max() ?? 0
for construct in report.constructs {
    let name = construct.name.padding(toLength: width, withPad: " ", startingAt: 0)
    print("  \(name)  \(construct.passed)/\(construct.total)")
}
print(report.summary)
exit(report.failed == 0 ? 0 : 1)
