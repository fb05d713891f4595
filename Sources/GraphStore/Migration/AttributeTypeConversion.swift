/// Which attribute type changes an inferred migration carries, and which values survive
/// them.
///
/// Core Data stores Boolean and the integer types in one SQLite storage class (INTEGER),
/// Float and Double in another (REAL), and migrates a store in place by copying columns
/// with SQL, so a number moves between these types as SQLite converts it (an integer into
/// a FLOAT column becomes a real, a whole real into an INTEGER column an integer). Wire's
/// model turned a Boolean into an Integer 32 through a renaming identifier with no mapping
/// model, and its test suite migrates its older stores with Core Data's inference.
///
/// GraphStore carries a change between these numeric types when every value survives it
/// (Boolean into an integer, an integer into a wider one, Float into Double, a small
/// integer into a floating-point type), and a change some values would not survive (a
/// narrower integer, a real into an integer, a number into a Boolean) when every value in
/// the store does: a value that would change refuses the migration, naming how many
/// objects hold one and one of them. Any other change (text, dates, data, Decimal, Double
/// into Float) is refused as needing a mapping model.
///
/// ```swift
/// AttributeTypeConversion.of(.boolean, to: .integer32)   // .everyValue
/// AttributeTypeConversion.of(.integer64, to: .integer16) // .valuesThatFit(.wholeNumber(in: -32768...32767))
/// AttributeTypeConversion.of(.string, to: .integer32)    // nil: a mapping model is needed
/// ```
enum AttributeTypeConversion: Sendable, Hashable {
    /// Every value keeps its meaning.
    case everyValue
    /// Values that fit keep their meaning; the store is checked for others.
    case valuesThatFit(StoredValueFit)

    /// The conversion from one type to another, or nil when it is not carried.
    static func of(_ from: AttributeType, to: AttributeType) -> AttributeTypeConversion? {
        let boolean: ClosedRange<Int64> = 0...1
        switch (from, to) {
        case _ where from == to: return .everyValue
        case (.boolean, _) where integerRange(of: to) != nil || to == .double || to == .float: return .everyValue
        case (_, .boolean) where integerRange(of: from) != nil || from == .double || from == .float:
            return .valuesThatFit(.wholeNumber(in: boolean))
        case (.float, .double): return .everyValue
        case (.double, _), (.float, _):
            return integerRange(of: to).map { .valuesThatFit(.wholeNumber(in: $0)) }
        default: break
        }
        guard let source = integerRange(of: from) else { return nil }
        if let target = integerRange(of: to) {
            return target.contains(source.lowerBound) && target.contains(source.upperBound) ? .everyValue : .valuesThatFit(.wholeNumber(in: target))
        }
        // Integers a floating-point type holds exactly: up to 2^24 in a Float, 2^53 in a Double.
        let exact: Int64
        switch to {
        case .float: exact = 1 << 24
        case .double: exact = 1 << 53
        default: return nil
        }
        return source.upperBound <= exact ? .everyValue : .valuesThatFit(.magnitude(atMost: exact))
    }

    /// The values an integer type holds, or nil for any other type.
    static func integerRange(of type: AttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}
