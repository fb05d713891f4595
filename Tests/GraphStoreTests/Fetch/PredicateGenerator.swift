import Foundation

/// Random predicates over the people model, as format strings (so the parser is in the loop).
struct PredicateGenerator {
    var rng: SeededGenerator
    /// Whether Employee's own keys may appear (fetches of Employee).
    var employees = false

    private static let strings = GeneratedGraph.names + GeneratedGraph.cities + ["A", "e", "é", "ß", "SS", "ö", "ZOE"]
    private static let likePatterns = ["a*", "*e", "?b*", "*ö*", "A*e", "a\\\\*", "*", "?", "*i*e*", "Al?ce"]
    private static let regexes = ["A.*", ".*e", "[a-z]+", "(?i)bob", "a|ab", ".*ö.*", "[A-Z][a-z]*"]
    private static let stringKeys = ["name", "firstName", "address.city"]
    private static let numberKeys = ["age", "score", "address.geo.lat"]

    mutating func predicate(depth: Int = 0) -> String {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth < 2, roll < 2 { return "(\(predicate(depth: depth + 1))) AND (\(predicate(depth: depth + 1)))" }
        if depth < 2, roll < 3 { return "(\(predicate(depth: depth + 1))) OR (\(predicate(depth: depth + 1)))" }
        if depth < 2, roll < 4 { return "NOT (\(predicate(depth: depth + 1)))" }
        return comparison()
    }

    private mutating func element<T>(_ pool: [T]) -> T { pool.randomElement(using: &rng) ?? pool[0] }

    private mutating func string() -> String {
        let text = element(Self.strings)
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private mutating func options() -> String { element(["", "", "[c]", "[d]", "[cd]", "[n]"]) }

    private mutating func comparison() -> String {
        switch Int.random(in: 0..<16, using: &rng) {
        case 0: return "\(element(Self.stringKeys)) \(element(["==", "!=", "<", "<=", ">", ">="]))\(options()) \(string())"
        case 1: return "\(element(Self.stringKeys)) \(element(["BEGINSWITH", "ENDSWITH", "CONTAINS"]))\(options()) \(string())"
        case 2: return "\(element(Self.stringKeys)) LIKE\(options()) \"\(element(Self.likePatterns))\""
        case 3: return "\(element(Self.stringKeys)) MATCHES\(options()) \"\(element(Self.regexes))\""
        case 4: return "\(element(Self.numberKeys)) \(element(["==", "!=", "<", "<=", ">", ">="])) \(element(["0", "7.5", "30", "48.85", "-1", "nil"]))"
        case 5: return "\(element(Self.stringKeys)) \(element(["==", "!="])) nil"
        case 6: return "\(element(Self.stringKeys)) IN\(options()) {\(string()), \(string()), nil}"
        case 7: return "age BETWEEN {\(Int.random(in: 0...30, using: &rng)), \(Int.random(in: 20...60, using: &rng))}"
        case 8: return "\(element(["ANY", "ALL", "NONE"])) children.\(element(["name BEGINSWITH[c] \"a\"", "age > 9", "name == nil", "name IN {\"Bob\", \"Alice\"}"]))"
        case 9: return "children.@count \(element(["==", ">", "<="])) \(Int.random(in: 0...3, using: &rng))"
        case 10: return "SUBQUERY(children, $c, $c.age > \(Int.random(in: 0...15, using: &rng)) AND ANY $c.toys.name ==[c] \"ball\").@count > 0"
        case 11: return "\(element(["ANY", "ALL"])) labels.title \(element(["==", "BEGINSWITH[cd]", "!="])) \(element(["\"red\"", "\"e\"", "\"ÉTÉ\""]))"
        case 12: return "\(element(["active == YES", "active == NO", "active != nil", "active == 1", "born > CAST(5e8, 'NSDate')", "born <= CAST(0, 'NSDate')"]))"
        case 13: return "\(element(["age == '30'", "name == 30", "name != 30", "address == nil", "address.geo == nil", "info.color == nil", "SELF == nil"]))"
        case 14: return "\(element(["pets.@max.age > 5", "pets.@sum.age >= 10", "children.@min.age == nil", "children.name CONTAINS[c] \"bob\"", "\"Bob\" IN children.name"]))"
        default:
            let extra = employees ? ["salary > 1500", "salary == nil", "age == salary"] : []
            return "\(element(extra + ["name.length > 3", "age + 1 > 30", "address.city ==[cd] \"gorlitz\"", "firstName < name", "firstName ==[c] name"]))"
        }
    }
}
