/// The `on|off` argument of `.headers`, `.timer`, `.echo`, `.bail` and `.changes`, and the
/// `on|off|auto` of `\x` and `.pager`.
enum OnOffArgument {
    /// `[on|off]`: also yes/no, true/false, 1/0.
    static let optional = ArgumentElement.optional([.word([.literal("on", also: ["yes", "true", "1"]), .literal("off", also: ["no", "false", "0"])])])

    /// The new value: on or off as typed; with no argument the setting is toggled, as
    /// psql's `\timing` does.
    static func value(_ arguments: ParsedArguments, current: Bool) -> Bool {
        arguments.has("on") ? true : arguments.has("off") ? false : !current
    }

    /// Whether `on` or `off` was typed (else the setting is toggled).
    static func given(_ arguments: ParsedArguments) -> Bool {
        arguments.has("on") || arguments.has("off")
    }

    /// `[on|off|auto]` (`\x`, `.pager`).
    static let optionalWithAuto = ArgumentElement.optional([.literal("on", "off", "auto")])

    /// The setting typed as one of its raw values (`on`, `off`, `auto`), or nil when none was.
    static func choice<Setting: RawRepresentable & CaseIterable>(_ arguments: ParsedArguments) -> Setting? where Setting.RawValue == String {
        Setting.allCases.first { arguments.has($0.rawValue) }
    }
}
