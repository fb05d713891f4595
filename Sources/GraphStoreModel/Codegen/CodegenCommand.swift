import Foundation

/// The `codegen` command line: `--model MODEL (--output DIR | --output-file FILE) [--all]`
/// writes one Swift file per entity of an Xcode model, as Xcode's Codegen setting says (see
/// ``ModelCodeGenerator``). Files are written only when their text changes, so a build that
/// runs it sees no change. `--output-file FILE` writes the same code as one file instead
/// (what the build-tool plugin asks for: its output must be named before the model is read).
///
/// One parser for both commands that run it: the shell's `graphstore codegen` and
/// `graphstore-codegen`, the GraphStoreCodegen plugin's tool, which is built from this
/// target alone. They differ only in the name their messages give.
///
/// ```swift
/// exit(CodegenCommand.run(Array(CommandLine.arguments.dropFirst()), as: "graphstore-codegen"))
/// ```
package enum CodegenCommand {
    /// The exit statuses, the shell's `ExitStatus` values: 0 success, 1 the command failed
    /// (an unreadable model, no entity to generate, a file not written), 2 a usage error.
    package static let success: Int32 = 0
    package static let failed: Int32 = 1
    package static let usageError: Int32 = 2

    /// Runs the command with these arguments (after the command's own name); `command` is
    /// the name its messages give (`graphstore codegen`). Returns the exit status.
    package static func run(_ arguments: [String], as command: String) -> Int32 {
        let usage = "usage: \(command) --model MODEL.xcdatamodeld (--output DIR | --output-file FILE) [--all]\n"
        var model: String?
        var output: String?
        var outputFile: String?
        var all = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--all": all = true
            case "--model", "--output", "--output-file":
                guard index < arguments.count else { return fail("\(argument) needs a value\n" + usage, usageError) }
                switch argument {
                case "--model": model = arguments[index]
                case "--output": output = arguments[index]
                default: outputFile = arguments[index]
                }
                index += 1
            case "--help", "-h":
                FileHandle.standardOutput.write(Data((usage + "Writes one Swift file per entity whose Codegen is Class Definition or Category/Extension (--all: every entity).\n").utf8))
                return success
            default: return fail("codegen: unknown argument '\(argument)'\n" + usage, usageError)
            }
        }
        guard let model, (output == nil) != (outputFile == nil) else { return fail(usage, usageError) }
        do {
            let file = try ModelFile(path: model)
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            let generator = ModelCodeGenerator(model: file.model, sourceName: name, includesManualEntities: all)
            let files = generator.files()
            if let outputFile {
                try write(files.map(\.contents).joined(separator: "\n"), to: outputFile)
            } else if let output {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                for generated in files { try write(generated.contents, to: URL(fileURLWithPath: output).appendingPathComponent(generated.name).path) }
            }
            if files.isEmpty {
                return fail("\(command): no entity of \(name) has Codegen set (Class Definition or Category/Extension); --all generates every entity\n", failed)
            }
            return success
        } catch {
            return fail("\(command): \(error)\n", failed)
        }
    }

    /// Writes a file unless it already holds this text.
    private static func write(_ text: String, to path: String) throws {
        if FileManager.default.contents(atPath: path) == Data(text.utf8) { return }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private static func fail(_ text: String, _ status: Int32) -> Int32 {
        FileHandle.standardError.write(Data(text.utf8))
        return status
    }
}
