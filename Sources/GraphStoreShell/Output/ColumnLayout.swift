/// Column widths and alignments for the aligned modes (table, box, markdown).
struct ColumnLayout: Equatable {
    /// The width of each column's values, in terminal columns.
    var widths: [Int]
    /// Whether a column was narrowed to fit the terminal: its longer values are cut with
    /// `…`. In other columns a longer value that arrives after the measured rows pushes its
    /// row out of line instead, so that streamed output never loses data.
    var narrowed: [Bool]

    /// The narrowest a column is cut to when fitting a terminal: room for two characters
    /// and the ellipsis.
    static let minimumWidth = 3

    /// Widths for `natural` widths (the widest value of each column, header included) so
    /// that a row with `overhead` columns of borders fits `available` columns.
    ///
    /// Only the widest columns are cut: the widths are capped at the largest value that
    /// fits, and what the cap leaves over goes back to the columns it cut. Columns are never
    /// cut below `minimumWidth`; when even that does not fit, the row overflows.
    static func fit(natural: [Int], overhead: Int, available: Int) -> [Int] {
        let budget = available - overhead
        guard natural.reduce(0, +) > budget, let widest = natural.max() else { return natural }
        func total(_ cap: Int) -> Int { natural.reduce(0) { $0 + min($1, cap) } }
        guard total(minimumWidth) <= budget else { return natural.map { min($0, minimumWidth) } }
        // The largest cap whose total fits: total() grows with cap, so search.
        var low = minimumWidth
        var high = widest
        while low < high {
            let middle = (low + high + 1) / 2
            if total(middle) <= budget { low = middle } else { high = middle - 1 }
        }
        var widths = natural.map { min($0, low) }
        var spare = budget - widths.reduce(0, +)
        for i in widths.indices where spare > 0 && widths[i] < natural[i] {
            widths[i] += 1
            spare -= 1
        }
        return widths
    }

    /// The border and padding columns a table or box row of `count` columns adds: `| ` + ` | `… + ` |`.
    static func overhead(columns count: Int) -> Int { 3 * count + 1 }
}
