import GraphStore

/// `.versions --model BUNDLE [VERSION]`: which version of a model bundle the open store
/// is. One row per version (whether it fits, whether it is current, what decided, what
/// differs); with VERSION, one row per difference of that version.
enum VersionsCommand {
    static let version = Placeholder("VERSION")

    static let command = ShellCommand(
        ".versions", arguments: [.requiredOption("--model", ModelVersionsArgument.bundle), .optional([.value(version)])],
        summary: "which version of a model bundle the store is: version, fits, current, decided_by, agreeing_hashes, differences, note; with VERSION, what differs",
        example: ".versions --model examples/BookStore/History.xcdatamodeld",
        details: """
            A version fits when its entity version hashes equal the store's NSStoreModelVersionHashes, every \
            entity both ways, as Core Data decides. Where the hashes cannot decide (the store has none, or the \
            only differing entities use features whose hashes GraphStore has not verified), the version is \
            compared with the store's own model in Z_MODELCACHE, else with its tables and columns; decided_by \
            says which. Versions Core Data cannot tell apart (identical hashes) are named in note; when several \
            fit, the one whose version identifiers are the store's is the store's version, else the latest. \
            When none fits, the nearest are marked. With VERSION, each difference is a row: kind (entity, \
            attribute, relationship, column), entity, property, difference. Nothing is written.
            """
    ) { shell, arguments in
        let (_, versions, match) = try ModelVersionsArgument.read(shell, arguments)
        if let name = arguments[version] {
            guard let candidate = match.candidates.first(where: { $0.name == name || $0.name + ".xcdatamodel" == name }) else {
                throw ShellError("\(versions.path): no version named \(name); versions: \(versions.names.joined(separator: ", "))")
            }
            shell.emit(columns: ["kind", "entity", "property", "difference"]) { sink in
                for difference in candidate.differences {
                    sink.row([.text(difference.kind.rawValue), .text(difference.entity), difference.property.map(Cell.text) ?? .null, .text(difference.detail)])
                }
            }
            return
        }
        let nearest = Set(match.nearest)
        shell.emit(columns: ["version", "fits", "current", "decided_by", "agreeing_hashes", "differences", "note"]) { sink in
            for candidate in match.candidates {
                let fits = candidate.problem != nil ? "unreadable" : candidate.fits ? "yes" : nearest.contains(candidate.name) ? "nearest" : "no"
                sink.row([
                    .text(candidate.name), .text(fits), .value(.bool(candidate.isCurrent)), .text(candidate.method.rawValue),
                    candidate.entityCount == 0 ? .null : .text("\(candidate.agreeingHashes)/\(candidate.entityCount)"),
                    .value(.integer(Int64(candidate.differences.count))), note(candidate, match).map(Cell.text) ?? .null,
                ])
            }
        }
        if let storeVersion = match.storeVersion {
            shell.diagnostics(".versions: the store is \(storeVersion)\(match.choice.map { " (\($0))" } ?? "")\n")
        } else {
            shell.diagnostics(".versions: no version fits the store; nearest: \(match.nearest.joined(separator: ", ")); .versions --model BUNDLE VERSION shows what differs\n")
        }
    }

    /// The note of a version's row: the store's version, its twins, why it is unreadable,
    /// or its first difference.
    private static func note(_ candidate: ModelVersionMatch.Candidate, _ match: ModelVersionMatch) -> String? {
        var parts: [String] = []
        if let problem = candidate.problem { parts.append(problem) }
        if candidate.name == match.storeVersion { parts.append("the store's version") }
        if !candidate.identicalVersions.isEmpty { parts.append("identical hashes: \(candidate.identicalVersions.joined(separator: ", "))") }
        if let first = candidate.differences.first {
            parts.append(first.description + (candidate.differences.count > 1 ? "; …" : ""))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
