/// One line of a release checklist (`verify --expect FILE`): a count or a predicate that
/// must hold in the store.
///
/// ```text
/// # comments and blank lines are skipped
/// count Book >= 4
/// count Book where price < 10 == 1
/// exists Book where title == "The fourth book"
/// none Book where price < 0
/// ```
public struct StoreExpectation: Sendable {
    /// What the line asks.
    public enum Kind: Sendable {
        /// `count ENTITY [where PREDICATE] OP N`.
        case count(comparison: String, value: Int)
        /// `exists ENTITY where PREDICATE`: at least one object.
        case exists
        /// `none ENTITY where PREDICATE`: no object.
        case none
    }

    /// The line as written (messages quote it).
    public var text: String
    /// Its line number in the file.
    public var line: Int
    /// The entity counted.
    public var entity: String
    /// The predicate's text, if any.
    public var predicate: String?
    /// What must hold.
    public var kind: Kind

    /// The comparisons a count line may use.
    static let comparisons = ["==", "=", "!=", ">=", "<=", ">", "<"]

    /// Reads an expectations file's text. A line that is not one of the forms above is an
    /// error naming its number.
    public static func parse(_ text: String, file: String) throws(StoreExpectationError) -> [StoreExpectation] {
        var result: [StoreExpectation] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix("--") else { continue }
            guard let expectation = StoreExpectation(line: line, number: index + 1) else {
                throw StoreExpectationError(file: file, line: index + 1, text: line)
            }
            result.append(expectation)
        }
        return result
    }

    private init?(line: String, number: Int) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count >= 2 else { return nil }
        text = line
        self.line = number
        entity = words[1]
        let rest = words.dropFirst(2)
        switch words[0] {
        case "count":
            guard rest.count >= 2, let value = Int(rest[rest.endIndex - 1]),
                Self.comparisons.contains(rest[rest.endIndex - 2])
            else { return nil }
            kind = .count(comparison: rest[rest.endIndex - 2], value: value)
            let middle = rest.dropLast(2)
            if middle.isEmpty {
                predicate = nil
            } else {
                guard middle.first == "where", middle.count > 1 else { return nil }
                predicate = middle.dropFirst().joined(separator: " ")
            }
        case "exists", "none":
            guard rest.first == "where", rest.count > 1 else { return nil }
            kind = words[0] == "exists" ? .exists : .none
            predicate = rest.dropFirst().joined(separator: " ")
        default:
            return nil
        }
    }

    /// Whether `count` objects satisfy the line.
    public func holds(forCount count: Int) -> Bool {
        switch kind {
        case .exists: count > 0
        case .none: count == 0
        case .count(let comparison, let value):
            switch comparison {
            case "==", "=": count == value
            case "!=": count != value
            case ">=": count >= value
            case "<=": count <= value
            case ">": count > value
            default: count < value
            }
        }
    }
}

/// An expectations file line that is not `count`, `exists` or `none` in the expected form.
public struct StoreExpectationError: Error, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line number.
    public var line: Int
    /// The line.
    public var text: String

    public var description: String {
        "\(file):\(line): expected 'count ENTITY [where PREDICATE] OP N', 'exists ENTITY where PREDICATE' or "
            + "'none ENTITY where PREDICATE', not '\(text)'"
    }
}
