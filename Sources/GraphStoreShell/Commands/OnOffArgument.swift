/// The `on|off` argument of `.headers`, `.timer`, `.echo`, `.bail` and `.changes`.
enum OnOffArgument {
    /// `[on|off]`: also yes/no, true/false, 1/0.
    static let optional = ArgumentElement.optional([.word([.literal("on", also: ["yes", "true", "1"]), .literal("off", also: ["no", "false", "0"])])])

    /// The new value: on or off as typed; with no argument the setting is toggled, as
    /// psql's `\timing` does.
    static func value(_ arguments: ParsedArguments, current: Bool) -> Bool {
        arguments.has("on") ? true : arguments.has("off") ? false : !current
    }
}
