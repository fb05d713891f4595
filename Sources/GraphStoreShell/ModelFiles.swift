import GraphStore

/// Loads a model file given with `--model` or `.open --model`.
enum ModelFiles {
    static func load(path: String) throws -> ManagedObjectModel {
        throw ShellError("reading model files is not available in this build: \(path)", exitCode: ExitStatus.storeNotOpened)
    }
}
