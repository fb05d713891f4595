import GraphStore

/// The `--model BUNDLE` of `.versions` and `migrate`: every version of the bundle, read.
enum ModelVersionsArgument {
    static let bundle = Placeholder("BUNDLE", .file)

    /// Reads the bundle named after `--model`, and compares the open store with each version.
    static func read(_ shell: Shell, _ arguments: ParsedArguments) throws -> (PersistentStore, ModelVersions, ModelVersionMatch) {
        let store = try shell.requireStore()
        // The declaration requires --model: ParsedArguments refused the line without it.
        guard let typed = arguments.value(of: "--model") else { throw arguments.usageError }
        let path = shell.resolve(path: typed)
        do {
            let versions = try ModelVersions(path: path)
            return (store, versions, try ModelVersionMatch(store: store, versions: versions))
        } catch {
            throw ShellError("\(error)")
        }
    }
}
