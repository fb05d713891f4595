/// Column widths and alignments for the aligned modes (table, box, markdown).
struct ColumnLayout: Equatable {
    /// The width of each shown column's values, in terminal columns.
    var widths: [Int]
    /// Whether a shown column's longer values are cut with `…`: it was narrowed to fit the
    /// terminal, or `.width` fixed it. In other columns a longer value widens the column
    /// (see ``AlignedTable``), so that streamed output never loses data.
    var narrowed: [Bool]
    /// Whether a shown column was narrowed to fit the terminal (not by `.width`).
    var fitted: [Bool]
    /// Whether a shown column's values are right-aligned (`.width -N`).
    var rightAligned: [Bool]
    /// How many columns after the shown ones did not fit the terminal at all: a column of
    /// `…` stands for them.
    var hiddenColumns = 0

    /// The narrowest a column is cut to when fitting a terminal: room for two characters
    /// and the ellipsis.
    static let minimumWidth = 3

    /// The layout of columns whose values are `natural` wide (the widest value of each,
    /// header included), with `.width` settings (`fixed`, nil where the column is
    /// automatic), fitted to `available` terminal columns when there is a terminal.
    ///
    /// Fixed columns keep their width. The automatic ones are fitted by cutting only the
    /// widest (see ``fit(natural:overhead:available:)``); when not even every column at its
    /// narrowest fits, the columns past the last that does are left out and a `…` column
    /// stands for them, so that no row is wider than the terminal.
    static func make(natural: [Int], fixed: [Int?], rightAligned: [Bool], available: Int?) -> ColumnLayout {
        let widths = natural.indices.map { fixed[$0] ?? natural[$0] }
        guard let available else {
            let isFixed = fixed.map { $0 != nil }
            return ColumnLayout(widths: widths, narrowed: isFixed, fitted: isFixed.map { _ in false }, rightAligned: rightAligned)
        }
        let shown = shownCount(natural: natural, fixed: fixed, available: available)
        let hidden = natural.count - shown
        let automatic = (0..<shown).filter { fixed[$0] == nil }
        let fixedTotal = (0..<shown).reduce(0) { $0 + (fixed[$1] ?? 0) }
        // The `…` column for hidden columns is one wide, with its border and padding.
        let reserved = fixedTotal + (hidden > 0 ? 1 + 3 : 0)
        let fittedWidths = fit(natural: automatic.map { natural[$0] }, overhead: overhead(columns: shown) + reserved, available: available)
        var layout = ColumnLayout(
            widths: Array(widths.prefix(shown)), narrowed: (0..<shown).map { fixed[$0] != nil },
            fitted: Array(repeating: false, count: shown), rightAligned: Array(rightAligned.prefix(shown)), hiddenColumns: hidden)
        for (column, width) in zip(automatic, fittedWidths) where width < natural[column] {
            layout.widths[column] = width
            layout.narrowed[column] = true
            layout.fitted[column] = true
        }
        return layout
    }

    /// How many leading columns fit `available` columns at their narrowest (at least one).
    private static func shownCount(natural: [Int], fixed: [Int?], available: Int) -> Int {
        var used = 0
        for column in natural.indices {
            used += (fixed[column] ?? min(natural[column], minimumWidth)) + 3
            // A `…` column for the rest needs room too, unless this is the last column.
            let rest = column == natural.count - 1 ? 0 : 1 + 3
            if used + 1 + rest > available { return max(column, 1) }
        }
        return natural.count
    }

    /// Widths for `natural` widths (the widest value of each column, header included) so
    /// that a row with `overhead` columns of borders fits `available` columns.
    ///
    /// Only the widest columns are cut: the widths are capped at the largest value that
    /// fits, and what the cap leaves over goes back to the columns it cut. Columns are never
    /// cut below `minimumWidth`; when even that does not fit, the row overflows (``make``
    /// leaves columns out before that happens).
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
