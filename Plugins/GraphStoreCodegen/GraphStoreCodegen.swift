import Foundation
import PackagePlugin

/// Generates the classes of each `.xcdatamodeld` (or `.xcdatamodel`) in a target at build
/// time, so that they never drift from the model. Declare the model a resource of the target
/// (`resources: [.copy("Model.xcdatamodeld")]`) so that SwiftPM hands it to the plugin, and
/// add `plugins: ["GraphStoreCodegen"]`. The tool is `graphstore-codegen`: `graphstore
/// codegen` built from GraphStoreModel alone, so that SwiftPM's second, host build of the
/// tool compiles the model and its readers, not the whole library and the shell.
@main
struct GraphStoreCodegen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "graphstore-codegen")
        // A model is a folder; SwiftPM lists it (a resource copied whole) or the files inside it.
        var models: [URL: [URL]] = [:]
        for file in target.sourceFiles {
            guard let model = Self.modelFolder(of: file.url) else { continue }
            models[model, default: []].append(file.url)
        }
        for model in models.keys {
            // The files inside a folder listed whole, so that a change to one regenerates.
            let inside = FileManager.default.enumerator(at: model, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            models[model, default: []] += inside
        }
        return models.keys.sorted { $0.path < $1.path }.map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)+Classes.swift")
            return .buildCommand(
                displayName: "Generating classes of \(model.lastPathComponent)",
                executable: tool.url,
                arguments: ["--model", model.path, "--output-file", output.path],
                inputFiles: models[model] ?? [],
                outputFiles: [output])
        }
    }

    /// The outermost `.xcdatamodeld` or `.xcdatamodel` folder that is or holds a file, if any.
    static func modelFolder(of file: URL) -> URL? {
        var folder = file
        var found: URL?
        while folder.pathComponents.count > 1 {
            if ["xcdatamodeld", "xcdatamodel"].contains(folder.pathExtension) { found = folder }
            folder = folder.deletingLastPathComponent()
        }
        return found
    }
}
