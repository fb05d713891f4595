/// The `on|off` argument of `.headers`, `.timer`, `.echo`, `.bail` and `.changes`.
enum OnOffArgument {
    /// The new value: `on`/`off` (also yes/no, true/false, 1/0); with no argument the
    /// setting is toggled, as psql's `\timing` does.
    static func value(_ words: [String], current: Bool, usage: String) throws(ShellError) -> Bool {
        guard words.count <= 1 else { throw ShellError("usage: \(usage)") }
        guard let word = words.first else { return !current }
        switch word.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw ShellError("expected on or off, not \(word); usage: \(usage)")
        }
    }
}
