/// The store's compiled fetch queries, by ``QueryFingerprint``: running a request again (or
/// showing its SQL, then running it, as the REPL's `.sql on` does) skips parsing key paths,
/// resolving them against the model and rendering SQL, and runs the very statement that was
/// shown.
///
/// Held by one store, whose mappings never change, so an entry never goes stale. Requests
/// whose predicate compiles differently from one run to the next have no fingerprint and
/// are compiled every time. The cache is emptied when it holds ``capacity`` queries (an app
/// runs a handful of distinct requests; a REPL session may type hundreds).
final class QueryCache {
    private var queries: [QueryFingerprint: FetchQuery] = [:]
    private let capacity = 64
    /// How many queries were compiled (cached or not): what a test counts to see that a
    /// fetch compiles its SQL once.
    private(set) var compilations = 0

    /// The cached query for a definition, or the one `compile` makes (kept when the
    /// definition has a fingerprint).
    func query(for definition: QueryDefinition, compile: (QueryDefinition) throws -> FetchQuery) rethrows -> FetchQuery {
        let fingerprint = definition.fingerprint
        if let fingerprint, let cached = queries[fingerprint] { return cached }
        compilations += 1
        let query = try compile(definition)
        if let fingerprint {
            if queries.count >= capacity { queries.removeAll() }
            queries[fingerprint] = query
        }
        return query
    }

    /// Whether a query for this definition is kept.
    func contains(_ definition: QueryDefinition) -> Bool {
        definition.fingerprint.map { queries[$0] != nil } ?? false
    }
}
