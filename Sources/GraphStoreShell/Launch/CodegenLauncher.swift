import Foundation
import GraphStore

/// `graphstore codegen --model MODEL --output DIR [--all]`: writes one Swift file per
/// entity of an Xcode model, as Xcode's Codegen setting says (see `ModelCodeGenerator`).
/// Files are written only when their text changes, so a build that runs it sees no change.
enum CodegenLauncher {
    static let usage = "usage: graphstore codegen --model MODEL.xcdatamodeld --output DIR [--all]\n"

    static func run(_ arguments: [String]) -> Int32 {
        var model: String?
        var output: String?
        var all = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--all": all = true
            case "--model", "--output":
                guard index < arguments.count else { return fail("\(argument) needs a value\n" + usage, ExitStatus.usage) }
                if argument == "--model" { model = arguments[index] } else { output = arguments[index] }
                index += 1
            case "--help", "-h":
                FileHandle.standardOutput.write(Data((usage + "Writes one Swift file per entity whose Codegen is Class Definition or Category/Extension (--all: every entity).\n").utf8))
                return ExitStatus.success
            default: return fail("codegen: unknown argument '\(argument)'\n" + usage, ExitStatus.usage)
            }
        }
        guard let model, let output else { return fail(usage, ExitStatus.usage) }
        do {
            let file = try ModelFile(path: model)
            let name = URL(fileURLWithPath: file.path).lastPathComponent
            let generator = ModelCodeGenerator(model: file.model, sourceName: name, includesManualEntities: all)
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let files = generator.files()
            for generated in files {
                let path = URL(fileURLWithPath: output).appendingPathComponent(generated.name).path
                if FileManager.default.contents(atPath: path) == Data(generated.contents.utf8) { continue }
                try Data(generated.contents.utf8).write(to: URL(fileURLWithPath: path))
            }
            if files.isEmpty {
                return fail("graphstore codegen: no entity of \(name) has Codegen set (Class Definition or Category/Extension); --all generates every entity\n", ExitStatus.commandFailed)
            }
            return ExitStatus.success
        } catch {
            return fail("graphstore codegen: \(error)\n", ExitStatus.commandFailed)
        }
    }

    private static func fail(_ text: String, _ status: Int32) -> Int32 {
        FileHandle.standardError.write(Data(text.utf8))
        return status
    }
}
