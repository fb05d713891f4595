/// "Did you mean …": the known names closest to a mistyped one — a command, an option, an
/// entity, a key, a mode — by case-insensitive edit distance (a swap of two neighbouring
/// letters counts as one edit), a difference only in case coming first.
///
/// ```swift
/// Suggestion.closest(to: "--wirte", among: ["--write", "--model"])   // ["--write"]
/// Suggestion.closest(to: "closedate", among: ["closeDate", "name"])  // ["closeDate"]
/// Suggestion.didYouMean("Bok", among: ["Book", "Page"])               // "; did you mean Book?"
/// ```
enum Suggestion {
    /// The names nearest `word` (ties together, at most three), or none when every name
    /// is too far to be a slip: more than one edit for a short word, two for a longer one.
    static func closest(to word: String, among names: [String]) -> [String] {
        let typed = Array(word.lowercased())
        if let sameLetters = names.first(where: { $0 != word && $0.lowercased() == word.lowercased() }) { return [sameLetters] }
        let limit = typed.count >= 5 ? 2 : 1
        var best: [String] = []
        var bestDistance = limit + 1
        for name in names where name != word {
            let distance = editDistance(typed, Array(name.lowercased()), limit: limit)
            if distance > limit { continue }
            if distance < bestDistance {
                bestDistance = distance
                best = [name]
            } else if distance == bestDistance, !best.contains(name) {
                best.append(name)
            }
        }
        return Array(best.prefix(3))
    }

    /// `; did you mean X?` (or `X or Y`), else `otherwise`.
    static func didYouMean(_ word: String, among names: [String], otherwise: String = "") -> String {
        let found = closest(to: word, among: names)
        guard !found.isEmpty else { return otherwise }
        return "; did you mean \(found.joined(separator: " or "))?"
    }

    /// The optimal string alignment distance of `a` and `b` (insertions, deletions,
    /// substitutions and swaps of neighbours), or `limit + 1` once it is certainly more.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
