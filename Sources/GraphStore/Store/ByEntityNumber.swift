/// Values kept per entity number, in an array: entity numbers are small and dense, and the
/// hot paths that look values up by entity (a statement per row saved) then index an array
/// instead of hashing a key.
///
/// ```swift
/// var statements = ByEntityNumber<Statement>()
/// statements[mapping.number] = statement
/// statements[mapping.number]   // the statement
/// ```
struct ByEntityNumber<Value> {
    private var values: [Value?] = []

    /// The value kept for entity `number`. Numbers below zero or from 65,536 up (only a
    /// damaged `Z_ENT` has them) are not kept: setting one does nothing.
    subscript(number: Int) -> Value? {
        @inline(__always)
        get { number >= 0 && number < values.count ? values[number] : nil }
        set {
            guard number >= 0, number < 1 << 16 else { return }
            if number >= values.count { values += Array(repeating: nil, count: number + 1 - values.count) }
            values[number] = newValue
        }
    }
}
