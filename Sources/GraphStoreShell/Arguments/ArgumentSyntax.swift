/// The arguments a command takes, declared once: its usage line, the check of what is
/// typed (with the usage error when it does not fit), typed access to the values in the
/// command's body, `.help`, TAB completion and the manual are all made from it.
///
/// Made of plain values (no reflection), so that the built-in commands cost nothing at
/// start-up; the usage text is written only when something asks for it.
///
/// ```swift
/// static let entity = Placeholder("ENTITY", .entity)
/// static let limit = Placeholder("LIMIT", .wholeNumber(from: 0))
/// static let syntax = ArgumentSyntax([.value(entity), .optional([.value(limit)])])
/// syntax.usage(of: ".rows")   // ".rows ENTITY [LIMIT]"
/// ```
public struct ArgumentSyntax: Sendable {
    /// The elements, in the order they are typed.
    public var elements: [ArgumentElement]

    /// A command's arguments (none when `elements` is empty).
    public init(_ elements: [ArgumentElement] = []) {
        self.elements = elements
    }

    /// The usage line of a command named `name`: `.rows ENTITY [LIMIT]`. Alternatives at
    /// the top level repeat the name (`show ENTITY/PK | show URI`).
    public func usage(of name: String) -> String {
        if elements.count == 1, case .oneOf(let alternatives) = elements[0] {
            return alternatives.map { Self.line(name, $0) }.joined(separator: " | ")
        }
        return Self.line(name, elements)
    }

    private static func line(_ name: String, _ elements: [ArgumentElement]) -> String {
        elements.isEmpty ? name : name + " " + shown(elements)
    }

    /// The notation of a sequence of elements.
    static func shown(_ elements: [ArgumentElement]) -> String {
        elements.map(shown).joined(separator: " ")
    }

    private static func shown(_ element: ArgumentElement) -> String {
        switch element {
        case .word(let choices):
            return choices.map(\.shown).joined(separator: "|")
        case .optional(let inner):
            // `[a | b]`: the brackets already group the alternatives.
            if inner.count == 1, case .oneOf(let alternatives) = inner[0] { return "[" + alternatives.map(shown).joined(separator: " | ") + "]" }
            return "[" + shown(inner) + "]"
        case .oneOf(let alternatives):
            return "(" + alternatives.map(shown).joined(separator: " | ") + ")"
        case .repeated(let inner, let separator):
            return shown(inner) + (separator ?? "") + " …"
        case .flag(let flag):
            return "[\(flag)]"
        case .option(let option, let value):
            return "[\(option) \(value.name)]"
        case .requiredFlag(let flag):
            return flag
        case .requiredOption(let option, let value):
            return "\(option) \(value.name)"
        case .repeatableOption(let option, let value):
            return "[\(option) \(value.name) …]"
        case .clauses(_, let grammar):
            return shown(grammar)
        }
    }

    /// The flags and options declared anywhere in the elements.
    var flags: [ArgumentElement] {
        var found: [ArgumentElement] = []
        func walk(_ elements: [ArgumentElement]) {
            for element in elements {
                switch element {
                case .flag, .option, .requiredFlag, .requiredOption, .repeatableOption: found.append(element)
                case .optional(let inner), .repeated(let inner, _), .clauses(_, let inner): walk(inner)
                case .oneOf(let alternatives): alternatives.forEach(walk)
                case .word: break
                }
            }
        }
        walk(elements)
        return found
    }

    /// The flags and options that must be typed.
    var requiredFlags: [String] {
        flags.compactMap { element in
            switch element {
            case .requiredFlag(let name), .requiredOption(let name, _): name
            default: nil
            }
        }
    }
}
