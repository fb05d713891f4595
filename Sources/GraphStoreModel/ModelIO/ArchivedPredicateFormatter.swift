import Foundation

/// Writes archived `NSPredicate`/`NSExpression` objects back as predicate format strings
/// (`name BEGINSWITH[c] "a" AND price >= 15`).
///
/// Compiled models and `Z_MODELCACHE` archive predicates as object graphs (comparison and
/// compound predicates over key-path, constant, variable and function expressions); the
/// model types hold them as text. Classes this formatter does not know make it return nil,
/// so the caller can report exactly which predicate was not understood. Each predicate and
/// expression written costs a step of the archive's budget (see ``ArchiveWalkBudget``):
/// an archived predicate may reuse a subpredicate at every level.
struct ArchivedPredicateFormatter {
    let archive: KeyedArchive
    private let maximumDepth = 64

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    /// The format string of an archived predicate, or nil when it holds an unknown class.
    func predicate(_ value: ArchiveValue?) -> String? {
        predicate(value, depth: 0)
    }

    /// The format string of an archived expression, or nil when it holds an unknown class.
    func expression(_ value: ArchiveValue?) -> String? {
        expression(value, depth: 0)
    }

    // MARK: - Predicates

    private func predicate(_ value: ArchiveValue?, depth: Int) -> String? {
        guard depth < maximumDepth, archive.budget.spend(), let value else { return nil }
        if let text = archive.string(value) { return text }
        guard let object = archive.object(value) else { return nil }
        switch object.className {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate": return compound(object, depth: depth)
        case "NSComparisonPredicate": return comparison(object, depth: depth)
        default: return nil
        }
    }

    private func compound(_ object: ArchivedObject, depth: Int) -> String? {
        var texts: [String] = []
        for sub in archive.array(object["NSSubpredicates"]) ?? [] {
            guard let text = predicate(sub, depth: depth + 1) else { return nil }
            // Only nested compounds need parentheses; comparisons bind tighter than AND/OR.
            texts.append(archive.object(sub)?.className == "NSCompoundPredicate" ? "(\(text))" : text)
        }
        switch archive.integer(object["NSCompoundPredicateType"]) {
        case 0: return texts.count == 1 ? "NOT \(texts[0])" : nil
        case 1: return texts.isEmpty ? "TRUEPREDICATE" : texts.joined(separator: " AND ")
        case 2: return texts.isEmpty ? "FALSEPREDICATE" : texts.joined(separator: " OR ")
        default: return nil
        }
    }

    private func comparison(_ object: ArchivedObject, depth: Int) -> String? {
        guard let left = expression(object["NSLeftExpression"], depth: depth + 1),
            let right = expression(object["NSRightExpression"], depth: depth + 1)
        else { return nil }
        let op = object["NSPredicateOperator"].flatMap { archive.object($0) }
        let fields = op?.fields ?? object.fields
        guard let type = archive.integer(fields["NSOperatorType"]) else { return nil }
        var symbol: String
        switch type {
        case 0: symbol = "<"
        case 1: symbol = "<="
        case 2: symbol = ">"
        case 3: symbol = ">="
        case 4: symbol = "=="
        case 5: symbol = "!="
        case 6: symbol = "MATCHES"
        case 7: symbol = "LIKE"
        case 8: symbol = "BEGINSWITH"
        case 9: symbol = "ENDSWITH"
        case 10: symbol = "IN"
        case 11:
            guard let selector = archive.string(fields["NSSelectorName"]) else { return nil }
            return "FUNCTION(\(left), \"\(selector)\", \(right))"
        case 99: symbol = "CONTAINS"
        case 100: symbol = "BETWEEN"
        default: return nil
        }
        let options = archive.integer(fields["NSOptions"]) ?? 0
        var flags = ""
        if options & 1 != 0 { flags += "c" }
        if options & 2 != 0 { flags += "d" }
        if options & 8 != 0 { flags += "n" }
        if !flags.isEmpty { symbol += "[\(flags)]" }
        let modifier = switch archive.integer(fields["NSModifier"]) ?? 0 {
        case 1: "ALL "
        case 2: "ANY "
        default: ""
        }
        let text = "\(modifier)\(left) \(symbol) \(right)"
        return archive.flag(fields["NSNegate"]) ? "NOT (\(text))" : text
    }

    // MARK: - Expressions

    private func expression(_ value: ArchiveValue?, depth: Int) -> String? {
        guard depth < maximumDepth, archive.budget.spend(), let value else { return nil }
        guard let object = archive.object(value) else { return nil }
        switch object.className {
        case "NSSelfExpression":
            return "SELF"
        case "NSAnyKeyExpression":
            return "ANYKEY"
        case "NSConstantValueExpression":
            return constant(object["NSConstantValue"] ?? .null, depth: depth)
        case "NSKeyPathSpecifierExpression":
            return archive.string(object["NSKeyPath"])
        case "NSVariableExpression":
            return archive.string(object["NSVariable"]).map { "$" + $0 }
        case "NSKeyPathExpression", "NSFunctionExpression":
            return function(object, depth: depth)
        case "NSAggregateExpression":
            let items = (archive.array(object["NSCollection"]) ?? []).map { expression($0, depth: depth + 1) }
            guard !items.contains(where: { $0 == nil }) else { return nil }
            return "{" + items.compactMap { $0 }.joined(separator: ", ") + "}"
        case "NSSubqueryExpression":
            guard let collection = expression(object["NSCollection"], depth: depth + 1),
                let variable = archive.string(object["NSVariable"]) ?? expression(object["NSVariableExpression"], depth: depth + 1),
                let condition = predicate(object["NSSubpredicate"], depth: depth + 1)
            else { return nil }
            return "SUBQUERY(\(collection), \(variable.hasPrefix("$") ? variable : "$" + variable), \(condition))"
        case "NSTernaryExpression":
            guard let condition = predicate(object["NSPredicate"], depth: depth + 1),
                let yes = expression(object["NSTrueExpression"], depth: depth + 1),
                let no = expression(object["NSFalseExpression"], depth: depth + 1)
            else { return nil }
            return "TERNARY(\(condition), \(yes), \(no))"
        default:
            return nil
        }
    }

    /// Key paths (`valueForKey:`/`valueForKeyPath:` on an operand) and functions (`count:`).
    private func function(_ object: ArchivedObject, depth: Int) -> String? {
        let selector = archive.string(object["NSSelectorName"]) ?? "valueForKeyPath:"
        let arguments = (archive.array(object["NSArguments"]) ?? []).map { expression($0, depth: depth + 1) }
        guard !arguments.contains(where: { $0 == nil }) else { return nil }
        let args = arguments.compactMap { $0 }
        let operand = object["NSOperand"].flatMap { expression($0, depth: depth + 1) }
        if selector == "valueForKey:" || selector == "valueForKeyPath:" {
            guard let path = args.first else { return nil }
            guard let operand, operand != "SELF" else { return path }
            return "\(operand).\(path)"
        }
        if selector == "castObject:toType:", args.count == 2 { return "CAST(\(args[0]), \(args[1]))" }
        // A built-in function (`count:`) has a constant operand; any other receiver is a
        // method called on an object, as FUNCTION writes it (mapping models call the
        // migration manager so: FUNCTION($manager, "destinationInstancesFor…", …)).
        if let operandObject = object["NSOperand"].flatMap({ archive.object($0) }), !operandObject.isKind(of: "NSConstantValueExpression") {
            guard let operand else { return nil }
            return "FUNCTION(\(operand), \(quoted(selector))" + args.map { ", " + $0 }.joined() + ")"
        }
        let name = selector.hasSuffix(":") ? String(selector.dropLast()) : selector
        return "\(name)(\(args.joined(separator: ", ")))"
    }

    private func constant(_ value: ArchiveValue, depth: Int) -> String? {
        switch archive.resolve(value) {
        case .null: return "nil"
        case .bool(let b): return b ? "YES" : "NO"
        case .integer(let v): return String(v)
        case .real(let v): return AttributeValue.format(v)
        case .string(let s): return quoted(s)
        case .date(let d): return "CAST(\(AttributeValue.format(d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .data, .reference, .array, .dictionary:
            if let text = archive.string(value) { return quoted(text) }
            if let date = archive.date(value) { return "CAST(\(AttributeValue.format(date.timeIntervalSinceReferenceDate)), \"NSDate\")" }
            if let uuid = archive.uuid(value) { return quoted(uuid.uuidString) }
            if let decimal = archive.decimal(value) { return "\(decimal)" }
            if let items = archive.array(value), depth < maximumDepth {
                let parts = items.map { constant($0, depth: depth + 1) }
                guard !parts.contains(where: { $0 == nil }) else { return nil }
                return "{" + parts.compactMap { $0 }.joined(separator: ", ") + "}"
            }
            return nil
        }
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
