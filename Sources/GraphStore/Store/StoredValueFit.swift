/// What a stored number must be to keep its value under another attribute type: the test
/// an inferred migration puts to a column whose type changes in a way some values would
/// not survive (see ``AttributeTypeConversion``).
///
/// ```swift
/// let fit = StoredValueFit.wholeNumber(in: Int64(Int16.min)...Int64(Int16.max))   // into Integer 16
/// try store.valuesNotFitting(fit, attribute: "pages", in: mapping)   // (count: 0, example: nil)
/// ```
enum StoredValueFit: Sendable, Hashable {
    /// A whole number within the range (an integer, or a real with no fraction).
    case wholeNumber(in: ClosedRange<Int64>)
    /// A number whose magnitude is at most the bound (an integer a floating-point type
    /// holds exactly).
    case magnitude(atMost: Int64)

    /// The condition, over the column, of a value that does not fit.
    func failing(_ column: String) -> String {
        switch self {
        case .wholeNumber(let range):
            "(typeof(\(column)) NOT IN ('integer', 'real') OR \(column) <> CAST(\(column) AS INTEGER) OR \(column) < \(range.lowerBound) OR \(column) > \(range.upperBound))"
        case .magnitude(let bound):
            "(typeof(\(column)) NOT IN ('integer', 'real') OR abs(\(column)) > \(bound))"
        }
    }
}

extension PersistentStore {
    /// How many objects of exactly `owner`'s entity hold a value of `attribute` that does
    /// not fit, and the one with the lowest key; one query.
    func valuesNotFitting(_ fit: StoredValueFit, attribute: String, in owner: EntityMapping) throws(StoreError) -> (count: Int, example: ObjectID?) {
        guard let column = owner.attribute(named: attribute)?.column else { return (0, nil) }
        let sql = "SELECT COUNT(*), MIN(Z_PK) FROM \(owner.table) WHERE Z_ENT = \(owner.number) AND \(column) IS NOT NULL AND \(fit.failing(column))"
        return try countWithExample(sql, owner: owner)
    }
}
