/// `FUNCTION(receiver, 'selector', arguments…)` on a string, in SQL: the NSString methods the
/// evaluator answers for strings, through `GS_FUNCTION`, which runs the evaluator's own code
/// on each row (`FUNCTION(title, 'lowercaseString') == 'moby dick'` filters in SQL instead of
/// making every object). Other selectors, and arguments that are not string constants (which
/// raise in memory when they are not strings), stay in memory.
extension PredicateSQLCompiler {
    /// The string selectors compiled, by name: how many arguments each takes and the kind of
    /// its result (a Boolean is a number, as `YES == 1`).
    static let stringSelectors: [String: (arguments: Int, result: SQLValueKind)] = [
        "uppercaseString": (0, .string), "lowercaseString": (0, .string), "capitalizedString": (0, .string),
        "length": (0, .number), "stringByAppendingString:": (1, .string),
        "stringByReplacingOccurrencesOfString:withString:": (2, .string),
        "hasPrefix:": (1, .number), "hasSuffix:": (1, .number), "containsString:": (1, .number),
    ]

    /// The call of a string selector on a string operand, or unsupported.
    func selectorCall(_ receiver: ObjectExpression, _ selector: String, _ arguments: [ObjectExpression], in scope: SQLScope) throws -> Operand {
        let call = ObjectExpression.selector(receiver: receiver, selector: selector, arguments: arguments).expressionFormat
        guard let shape = PredicateSQLCompiler.stringSelectors[selector], shape.arguments == arguments.count else {
            throw SQLUnsupported("\(call) is evaluated in memory (\(selector) is not a string method SQL runs)")
        }
        guard case .scalar(let text) = try valueOperand(receiver, in: scope), text.kind == .string else {
            throw SQLUnsupported("\(call) is evaluated in memory (its receiver is not a string attribute)")
        }
        var fragments: [SQLFragment] = [.parameter(.text(selector)), text.fragment]
        for argument in arguments {
            guard case .constant(.attribute(.string(let value))) = argument else {
                throw SQLUnsupported("\(call) is evaluated in memory (its arguments are not string constants)")
            }
            fragments.append(.parameter(.text(value)))
        }
        return .scalar(SQLOperand(fragment: .function(.function, fragments), kind: shape.result, nullable: true))
    }
}
