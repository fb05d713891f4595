/// The model's rules for a relationship's size: a non-optional relationship must not be
/// empty, and a to-many one must hold between its minimum and maximum count.
///
/// As in Core Data, the counts of an *optional* to-many are only enforced when it is not
/// empty; an empty non-optional to-many breaks its minimum count (at least one), and an
/// empty non-optional to-one is a missing mandatory property.
enum RelationshipRules {
    /// Whether a relationship has any rule about its size.
    static func hasRules(_ r: RelationshipDescription) -> Bool {
        !r.isOptional || (r.isToMany && (r.minCount > 0 || r.maxCount > 0))
    }

    /// The rule a relationship holding `count` objects breaks, or nil.
    static func brokenRule(count: Int, of r: RelationshipDescription) -> ValidationRule? {
        guard r.isToMany else { return count == 0 && !r.isOptional ? .required : nil }
        if count == 0 {
            return r.isOptional ? nil : .minimumCount(max(1, r.minCount))
        }
        if r.minCount > 0, count < r.minCount { return .minimumCount(r.minCount) }
        if r.maxCount > 0, count > r.maxCount { return .maximumCount(r.maxCount) }
        return nil
    }
}
