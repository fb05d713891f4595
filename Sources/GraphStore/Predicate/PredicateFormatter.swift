import Foundation

/// Prints predicates and expressions as Apple's `predicateFormat` does.
///
/// Observed rules: upper-case keywords and operators with single spaces, options right
/// after the operator (`LIKE[cd]`), strings in double quotes with `"` and `\` escaped,
/// booleans as 1/0, dates as `CAST(<seconds since 2001>, "NSDate")`, compound operands
/// of a compound in parentheses, nested arithmetic operands in parentheses.
enum PredicateFormatter {
    static func predicate(_ predicate: ObjectPredicate) -> String {
        switch predicate {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): return self.comparison(comparison)
        case .and(let operands): return compound(operands, joiner: " AND ", empty: "TRUEPREDICATE")
        case .or(let operands): return compound(operands, joiner: " OR ", empty: "FALSEPREDICATE")
        case .not(let operand): return "NOT " + compoundOperand(operand)
        }
    }

    private static func compound(_ operands: [ObjectPredicate], joiner: String, empty: String) -> String {
        operands.isEmpty ? empty : operands.map(compoundOperand).joined(separator: joiner)
    }

    /// A compound inside a compound is parenthesized, even of the same kind.
    private static func compoundOperand(_ operand: ObjectPredicate) -> String {
        switch operand {
        case .and, .or, .not: "(" + predicate(operand) + ")"
        case .constant, .comparison: predicate(operand)
        }
    }

    static func comparison(_ comparison: ComparisonPredicate) -> String {
        let modifier =
            switch comparison.modifier {
            case .direct: ""
            case .any: "ANY "
            case .all: "ALL "
            }
        let options = comparison.options.isEmpty ? "" : "[\(comparison.options.letters)]"
        return modifier + expression(comparison.left) + " " + comparison.comparisonOperator.symbol + options + " "
            + expression(comparison.right)
    }

    /// Key path components joined by dots; a reserved word gets its `#` back (`#in`), so
    /// that the text parses to the same key path.
    static func keyPath(_ path: [String]) -> String {
        path.map { PredicateKeyword.byWord[$0.uppercased()] == nil ? $0 : "#" + $0 }.joined(separator: ".")
    }

    static func expression(_ expression: ObjectExpression) -> String {
        switch expression {
        case .constant(let value): return constant(value)
        case .evaluatedObject: return "SELF"
        case .keyPath(let path): return keyPath(path)
        case .variable(let name): return "$" + name
        case .member(let base, let path):
            return operand(base) + "." + keyPath(path)
        case .index(let base, let selector):
            let inside =
                switch selector {
                case .first: "FIRST"
                case .last: "LAST"
                case .size: "SIZE"
                case .expression(let index): self.expression(index)
                }
            return operand(base) + "[" + inside + "]"
        case .aggregate(let elements):
            return "{" + elements.map(self.expression).joined(separator: ", ") + "}"
        case .arithmetic(let op, let left, let right):
            return operand(left) + " " + op.symbol + " " + operand(right)
        case .unary(let op, let operand):
            return op.rawValue + self.operand(operand)
        case .function(let function, let arguments):
            return function.rawValue + "(" + arguments.map(self.expression).joined(separator: ", ") + ")"
        case .selector(let receiver, let selector, let arguments):
            let parts = [self.expression(receiver), quoted(selector)] + arguments.map(self.expression)
            return "FUNCTION(" + parts.joined(separator: ", ") + ")"
        case .cast(let value, let type):
            return "CAST(" + self.expression(value) + ", " + quoted(type) + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + self.expression(collection) + ", $" + variable + ", " + self.predicate(predicate) + ")"
        case .anyKey:
            return "ANYKEY"
        }
    }

    /// An operand of an infix or postfix operator: arithmetic is parenthesized.
    private static func operand(_ expression: ObjectExpression) -> String {
        switch expression {
        case .arithmetic: "(" + self.expression(expression) + ")"
        default: self.expression(expression)
        }
    }

    static func constant(_ value: PredicateValue) -> String {
        switch value {
        case .null: return "nil"
        case .attribute(let attribute): return self.attribute(attribute)
        case .array(let elements), .set(let elements):
            return "{" + elements.map(constant).joined(separator: ", ") + "}"
        case .object(let object):
            if let dictionary = object as? KeyValueDictionary {
                let entries = dictionary.entries.sorted { $0.key < $1.key }
                    .map { quoted($0.key) + " = " + constant($0.value) + "; " }
                return "{" + entries.joined() + "}"
            }
            return "<\(type(of: object))>"
        }
    }

    static func attribute(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let v): String(v)
        case .double(let v): number(v)
        case .decimal(let v): "\(v)"
        case .bool(let v): v ? "1" : "0"
        case .string(let s): quoted(s)
        case .date(let d): "CAST(" + String(format: "%f", d.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .data(let d): "<" + d.map { String(format: "%02x", $0) }.joined() + ">"
        case .uuid(let u): quoted(u.uuidString)
        case .uri(let u): quoted(u.absoluteString)
        }
    }

    /// NSNumber's description of a double: `%.16g` (`30`, `7.5`, `0.001`, `1e-09`).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return String(format: "%.16g", value)
    }

    /// Double-quoted, with `\` and `"` escaped so the text reads back the same.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
