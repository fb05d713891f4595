/// How many steps reading a keyed archive may take: each element of an archived array or
/// dictionary reached, each value written out as text.
///
/// Objects of a keyed archive refer to each other by index, so an array may hold the same
/// array twice, which holds another twice, and so on: 60 levels of that are a few hundred
/// bytes and stand for 2^60 elements. Core Data's decoder shares such objects; the readers
/// here walk them, so they count their steps, stop once the budget (a few steps per byte
/// of the archive, `BinaryPropertyList.expansionLimit(forBytes:)`) is spent, and the
/// decoder then refuses the archive with an error rather than running for ever.
///
/// A reference type, so that every copy of a ``KeyedArchive`` spends from one budget.
final class ArchiveWalkBudget {
    /// The steps allowed in all.
    let limit: Int
    private var remaining: Int

    init(limit: Int) {
        self.limit = limit
        remaining = limit
    }

    /// Takes `count` steps; false once the budget is spent.
    func spend(_ count: Int = 1) -> Bool {
        remaining -= min(count, remaining + 1)
        return remaining >= 0
    }

    /// Whether a reader needed more steps than the budget allows.
    var isSpent: Bool { remaining < 0 }
}
