import GraphStore

/// Loads a model file given with `--model` or `.open --model`.
enum ModelFiles {
    static func load(path: String) throws -> ManagedObjectModel {
        do {
            return try ModelFile.load(path: path, version: nil)
        } catch {
            throw ShellError(ShellError.message(for: error), exitCode: ExitStatus.storeNotOpened)
        }
    }
}
