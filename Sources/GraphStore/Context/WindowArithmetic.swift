/// Sums of the counts a fetch's window is made of (an offset, a limit, rows to skip),
/// which a caller may give as large as `Int.max` ("no limit" in effect): a sum too large
/// for `Int` stands for "all rows" and stays `Int.max`, where plain `+` would stop the
/// process.
///
/// ```swift
/// WindowArithmetic.sum(Int.max, 10)   // Int.max
/// ```
enum WindowArithmetic {
    /// `a + b`, or `Int.max` when that does not fit (the counts are never negative).
    static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : total
    }
}
