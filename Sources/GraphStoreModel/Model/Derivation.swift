/// What a derived attribute's expression computes, in the forms Core Data supports for an
/// SQLite store (`NSDerivedAttributeDescription`): a key path along to-one relationships
/// (`name`, `author.name`), a string function of one (`canonical:(name)`, `lowercase:(…)`,
/// `uppercase:(…)`), the count of a to-many relationship or the sum of one of its
/// destination's attributes (`pages.@count`, `items.price.@sum`), or the time of the save
/// (`now()`).
///
/// ```swift
/// let derivation = try Derivation(parsing: "pages.@count")   // .aggregate(.count, relationship: "pages", attribute: nil)
/// ```
public enum Derivation: Sendable, Hashable {
    /// A string function Core Data applies to a copied value.
    public enum StringFunction: String, Sendable, Hashable, CaseIterable {
        /// Case- and diacritic-insensitive form.
        case canonical
        /// Lower case.
        case lowercase
        /// Upper case.
        case uppercase
    }

    /// An aggregate over a to-many relationship.
    public enum Aggregate: String, Sendable, Hashable {
        /// How many objects the relationship holds.
        case count
        /// The sum of one attribute of those objects (0 when there are none).
        case sum
    }

    /// The value at the end of a key path of to-one relationships, the last step an attribute.
    case keyPath([String])
    /// A string function of such a key path.
    case function(StringFunction, [String])
    /// An aggregate over one of the entity's own to-many relationships.
    case aggregate(Aggregate, relationship: String, attribute: String?)
    /// The time the row was last saved.
    case now

    /// Reads a derivation expression as Xcode and the model cache spell it; nil when it is
    /// not one of the supported forms.
    public init?(parsing text: String) {
        let expression = text.filter { !$0.isWhitespace }
        if expression == "now()" {
            self = .now
            return
        }
        for function in StringFunction.allCases where expression.hasPrefix(function.rawValue + ":(") && expression.hasSuffix(")") {
            let inner = expression.dropFirst(function.rawValue.count + 2).dropLast()
            guard let path = Derivation.keyPath(String(inner)) else { return nil }
            self = .function(function, path)
            return
        }
        let parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let at = parts.firstIndex(where: { $0.hasPrefix("@") }) {
            // `items.price.@sum` and `items.@sum.price` (Foundation's own order) both name
            // the same sum.
            guard let aggregate = Aggregate(rawValue: String(parts[at].dropFirst())) else { return nil }
            let path = parts[..<at] + parts[(at + 1)...]
            guard path.allSatisfy(Derivation.isName), let relationship = path.first else { return nil }
            switch (aggregate, path.count) {
            case (.count, 1): self = .aggregate(.count, relationship: relationship, attribute: nil)
            case (.sum, 2): self = .aggregate(.sum, relationship: relationship, attribute: path.last)
            default: return nil
            }
            return
        }
        guard let path = Derivation.keyPath(expression) else { return nil }
        self = .keyPath(path)
    }

    private static func keyPath(_ text: String) -> [String]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return parts.allSatisfy(isName) ? parts : nil
    }

    private static func isName(_ part: String) -> Bool {
        guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return part.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension ManagedObjectModel {
    /// Why GraphStore cannot compute a derived attribute of `entity` as its save must, or nil
    /// when it can (always nil for an attribute that is not derived).
    public func derivationProblem(of attribute: AttributeDescription, in entity: String) -> String? {
        guard let text = attribute.derivationExpression else { return nil }
        guard attribute.isStored else { return "a derived attribute is stored; this one is transient" }
        guard let derivation = Derivation(parsing: text) else {
            return "not a derivation Core Data supports (a to-one key path, canonical:, lowercase: or uppercase: of one, "
                + "a to-many's @count or @sum, or now())"
        }
        switch derivation {
        case .now:
            return attribute.type == .date ? nil : "now() gives a date; the attribute is \(attribute.type.xcodeName)"
        case .keyPath(let path):
            return keyPathProblem(path, from: entity) { source in
                source.type == attribute.type ? nil : "\(path.joined(separator: ".")) is \(source.type.xcodeName); the attribute is \(attribute.type.xcodeName)"
            }
        case .function(let function, let path):
            guard attribute.type == .string else { return "\(function.rawValue): gives a string; the attribute is \(attribute.type.xcodeName)" }
            return keyPathProblem(path, from: entity) { source in
                source.type == .string ? nil : "\(function.rawValue): applies to a string; \(path.joined(separator: ".")) is \(source.type.xcodeName)"
            }
        case .aggregate(let aggregate, let name, let attributeName):
            guard attribute.type.isNumeric else { return "@\(aggregate.rawValue) gives a number; the attribute is \(attribute.type.xcodeName)" }
            guard let relationship = relationship(name, of: entity), relationship.isToMany, !relationship.isTransient else {
                return "\(name) is not a stored to-many relationship of \(entity)"
            }
            guard let attributeName else { return nil }
            guard let source = self.attribute(attributeName, of: relationship.destination), source.isStored, source.type.isNumeric else {
                return "\(attributeName) is not a stored number attribute of \(relationship.destination)"
            }
            return source.derivationExpression == nil ? nil : "\(relationship.destination).\(attributeName) is itself derived"
        }
    }

    /// Walks to-one relationships to the attribute a key path ends at and judges it.
    private func keyPathProblem(_ path: [String], from entity: String, judging judge: (AttributeDescription) -> String?) -> String? {
        var current = entity
        for step in path.dropLast() {
            guard let relationship = relationship(step, of: current), !relationship.isToMany, !relationship.isTransient else {
                return "\(step) is not a stored to-one relationship of \(current)"
            }
            current = relationship.destination
        }
        guard let last = path.last, let source = attribute(last, of: current), source.isStored else {
            return "\(path.last ?? "") is not a stored attribute of \(current)"
        }
        if source.derivationExpression != nil { return "\(current).\(source.name) is itself derived" }
        return judge(source)
    }
}
