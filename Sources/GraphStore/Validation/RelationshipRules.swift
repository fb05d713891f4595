/// The model's rules for a relationship's size: a non-optional to-one must be set, and a
/// to-many must hold between its minimum and maximum count.
///
/// As in Core Data, the counts of an *optional* to-many are only enforced when it is not
/// empty. A to-many is never nil (it is an empty set), so being non-optional asks nothing
/// more of it than its minimum count: stores Core Data itself wrote hold empty non-optional
/// to-manys (wire's `UserClient.trustedClients`, in the corpus).
enum RelationshipRules {
    /// Whether a relationship has any rule about its size.
    static func hasRules(_ r: RelationshipDescription) -> Bool {
        r.isToMany ? r.minCount > 0 || r.maxCount > 0 : !r.isOptional
    }

    /// The rule a relationship holding `count` objects breaks, or nil.
    static func brokenRule(count: Int, of r: RelationshipDescription) -> ValidationRule? {
        guard r.isToMany else { return count == 0 && !r.isOptional ? .required : nil }
        if count == 0, r.isOptional { return nil }
        if r.minCount > 0, count < r.minCount { return .minimumCount(r.minCount) }
        if r.maxCount > 0, count > r.maxCount { return .maximumCount(r.maxCount) }
        return nil
    }

    /// The value a failure reports: a to-many's size; nothing for an empty to-one.
    static func value(count: Int, of r: RelationshipDescription) -> AttributeValue? {
        r.isToMany ? .integer(Int64(count)) : nil
    }
}
