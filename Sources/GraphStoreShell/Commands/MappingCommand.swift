import GraphStore

/// `.mapping FILE [--model BUNDLE]`: a mapping model (`.xcmappingmodel`) as a reader needs
/// it: the models it maps between, then each entity mapping in the order it runs, with its
/// type, source fetch, policy and the value expression of every property (generated ones
/// marked). With `--model`, which versions of the bundle its snapshots are.
enum MappingCommand {
    static let file = Placeholder("FILE", .file)

    static let command = ShellCommand(
        ".mapping", arguments: [.value(file), .option("--model", ModelVersionsArgument.bundle)],
        summary: "show a mapping model (.xcmappingmodel): its entity mappings in order, their types, policies and value expressions; --model says which versions it maps between",
        example: ".mapping examples/BookStore/Mappings/Catalogue.xcmappingmodel",
        details: """
            FILE is an .xcmappingmodel bundle or its xcmapping.xml. Names and types the file does not hold are \
            worked out as Xcode's compiler does: a mapping is named SourceToDestination (the destination alone \
            for an added entity), and is add without a source, remove without a destination, custom with a \
            policy class, copy otherwise. A property the file gives no expression gets the one Xcode generates \
            ($source.name for an attribute the source has, the manager's destinationInstances… function for a \
            relationship), marked (generated); one that gets none keeps the destination's default. With \
            --model, each of the file's model snapshots is compared with the bundle's versions on every input of \
            the version hashes: the version it is, or the nearest and each property that differs (the model \
            was edited after the mapping was made: Core Data would not use the mapping). A file that cannot be \
            read is an error naming the file and the mapping. Nothing is written.
            """
    ) { shell, arguments in
        guard let typed = arguments[file] else { throw arguments.usageError }
        let mappingFile: MappingModelFile
        do {
            mappingFile = try MappingModelFile(path: shell.resolve(path: typed))
        } catch {
            throw ShellError(".mapping: \(error)")
        }
        var versions: ModelVersions?
        if let bundle = arguments.value(of: "--model") {
            do {
                versions = try ModelVersions(path: shell.resolve(path: bundle))
            } catch {
                throw ShellError(".mapping: \(error)")
            }
        }
        shell.output(MappingModelText(file: mappingFile, versions: versions).text)
    }
}

/// A mapping model as text (see ``MappingCommand``).
struct MappingModelText {
    let file: MappingModelFile
    let versions: ModelVersions?

    var text: String {
        let model = file.mappingModel
        var lines = ["Mapping model \(file.path): \(count(model.entityMappings.count, "entity mapping"))"]
        let fit = versions.map { MappingModelFit(mapping: model, versions: $0) }
        lines.append(side("source", path: model.sourceModelPath, snapshot: model.sourceModel, fit: fit?.source))
        lines.append(side("destination", path: model.destinationModelPath, snapshot: model.destinationModel, fit: fit?.destination))
        for difference in (fit?.source?.differences ?? []) + (fit?.destination?.differences ?? []) {
            lines.append("    differs: \(difference)")
        }
        for (index, mapping) in model.entityMappings.enumerated() {
            lines.append("")
            lines += self.lines(mapping, number: index + 1, in: model)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func side(_ name: String, path: String?, snapshot: ManagedObjectModel?, fit: MappingModelFit.Side?) -> String {
        var line = "  \(name) model: " + (path ?? "no path recorded")
        line += snapshot.map { " (snapshot of \(count($0.entities.count, "entity", "entities")))" } ?? " (no snapshot)"
        if let fit, let versions {
            line += fit.fits
                ? "; it is version \(fit.version) of \(versions.path)"
                : "; no version of \(versions.path) has it: the nearest is \(fit.version), which differs (\(count(fit.differences.count, "difference")))"
        }
        return line
    }

    /// "1 entity", "3 entities".
    private func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }

    private func lines(_ mapping: MappingModel.EntityMapping, number: Int, in model: MappingModel) -> [String] {
        var head = "\(number). \(mapping.name) (\(mapping.kind.rawValue)"
        if let policy = mapping.policyClassName { head += "; policy \(policy)" }
        var lines = [head + ")"]
        let source = mapping.sourceEntity.map { entity in
            "from \(entity)" + (mapping.sourceFilter.map { " where \($0)" } ?? "")
        } ?? "no source objects (new entity)"
        lines.append("   \(source) → \(mapping.destinationEntity ?? "nothing (removed entity)")")
        if let fetch = mapping.sourceExpression { lines.append("   source: \(fetch)") }
        for (key, value) in mapping.userInfo.sorted(by: { $0.key < $1.key }) { lines.append("   user info: \(key) = \(value)") }
        for (title, properties) in [("attributes", mapping.attributeMappings), ("relationships", mapping.relationshipMappings)] where !properties.isEmpty {
            lines.append("   \(title):")
            for property in properties {
                let (expression, generated) = model.valueExpression(of: property, in: mapping)
                let none = model.sourceModel == nil
                    ? "generated from the source model, of which the file has no snapshot"
                    : "nothing: keeps its default"
                lines.append("     \(property.name) = " + (expression.map { $0 + (generated ? " (generated)" : "") } ?? none))
            }
        }
        return lines
    }
}
