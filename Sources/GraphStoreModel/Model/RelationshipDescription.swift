/// What happens to a relationship's destination when its source object is deleted.
///
/// The raw values are Core Data's `NSDeleteRule` codes.
public enum DeleteRule: Int, Sendable, Hashable, CaseIterable {
    /// The destination is left alone; its inverse points to a deleted object.
    case noAction = 0
    /// The destination's inverse is cleared.
    case nullify = 1
    /// The destination objects are deleted too.
    case cascade = 2
    /// The delete fails (error 1600) while the relationship is not empty.
    case deny = 3

    /// The name Xcode writes (`deletionRule="Cascade"`).
    public var xcodeName: String {
        switch self {
        case .noAction: "No Action"
        case .nullify: "Nullify"
        case .cascade: "Cascade"
        case .deny: "Deny"
        }
    }

    /// Reads Xcode's delete rule name.
    public init?(xcodeName: String) {
        guard let rule = DeleteRule.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = rule
    }
}

/// A relationship from one entity to another: to-one, to-many, or ordered to-many.
///
/// ```swift
/// let books = RelationshipDescription("books", to: "Book", inverse: "category", toMany: true)
///     .deleteRule(.cascade)
/// let category = RelationshipDescription("category", to: "BookCategory", inverse: "books")
/// ```
public struct RelationshipDescription: Sendable, Hashable {
    /// The property name.
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// The inverse relationship's name on the destination, if any.
    public var inverse: String?
    /// Whether the relationship holds many objects.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    /// The fewest objects a to-many relationship may hold at save time (0: no bound).
    ///
    /// A to-one keeps the minimum its model gave (older Xcode wrote `minCount="1"` on
    /// optional to-ones): optionality, not the count, governs a to-one, but the count is part
    /// of the version hash.
    public var minCount: Int
    /// The most objects a to-many relationship may hold at save time (0: no bound); 1 for a
    /// to-one.
    public var maxCount: Int
    /// What deleting the source does to the destination.
    public var deleteRule: DeleteRule
    /// Whether the relationship may be empty at save time.
    public var isOptional: Bool
    /// Transient relationships are not stored.
    public var isTransient: Bool
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// The name this property had in an earlier model version.
    public var renamingIdentifier: String?
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]

    /// Creates a relationship; optional, nullify, to-one unless told otherwise.
    public init(
        _ name: String, to destination: String, inverse: String? = nil,
        toMany: Bool = false, ordered: Bool = false, deleteRule: DeleteRule = .nullify, optional: Bool = true
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
        self.isOrdered = ordered
        self.minCount = 0
        self.maxCount = toMany ? 0 : 1
        self.deleteRule = deleteRule
        self.isOptional = optional
        self.isTransient = false
        self.userInfo = [:]
    }

    /// A copy with another delete rule.
    public func deleteRule(_ rule: DeleteRule) -> Self { with { $0.deleteRule = rule } }
    /// A copy that must not be empty at save time.
    public func required() -> Self { with { $0.isOptional = false } }
    /// A copy with bounds on the number of objects.
    public func count(_ range: ClosedRange<Int>) -> Self {
        with { $0.minCount = range.lowerBound; $0.maxCount = range.upperBound }
    }
    /// A copy with a lower bound on the number of objects.
    public func minCount(_ value: Int) -> Self { with { $0.minCount = value } }
    /// A copy with an upper bound on the number of objects.
    public func maxCount(_ value: Int) -> Self { with { $0.maxCount = value } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
