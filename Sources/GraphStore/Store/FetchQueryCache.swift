import Foundation

/// The SQL a fetch request compiled to, kept with the request so that running the same
/// request again skips compiling its predicate and sort keys (parsing key paths, resolving
/// them against the model, rendering SQL) — a visible share of a small fetch repeated often.
///
/// The request holds one cache; changing any property the SQL depends on gives the request
/// a new, empty one (copies of the request made before keep theirs). Entries are for one
/// store at a time (held weakly, compared by identity). A request whose predicate compiles
/// differently from one run to the next is never cached: constants folded at compile time
/// (`now()`, `random()`, functions and selectors in general), variables, and managed objects
/// as constants (whose keys change when they are saved).
final class FetchQueryCache: @unchecked Sendable {
    // @unchecked: every access to the mutable state below holds `lock`; requests are
    // Sendable, so copies sharing one cache may be used from several threads.
    private let lock = NSLock()
    private weak var store: PersistentStore?
    private var queries: [FetchQuery.Selection: FetchQuery] = [:]
    /// Whether the predicate compiles to the same SQL every time (decided on first use).
    private var cacheable: Bool?

    /// The cached query for `selection` on `store`, if any.
    func query(_ selection: FetchQuery.Selection, in store: PersistentStore) -> FetchQuery? {
        lock.lock()
        defer { lock.unlock() }
        guard self.store === store else { return nil }
        return queries[selection]
    }

    /// Keeps a compiled query of `request` for `store` (replacing another store's entries).
    func keep(_ query: FetchQuery, _ selection: FetchQuery.Selection, of request: FetchRequest, in store: PersistentStore) {
        lock.lock()
        defer { lock.unlock() }
        if cacheable == nil { cacheable = request.predicate?.compilesStably ?? true }
        guard cacheable == true else { return }
        if self.store !== store {
            self.store = store
            queries = [:]
        }
        queries[selection] = query
    }
}

extension ObjectPredicate {
    /// Whether compiling the predicate gives the same SQL and bindings every time (see
    /// ``FetchQueryCache``): no functions, selectors, variables or object constants.
    var compilesStably: Bool {
        switch self {
        case .constant: true
        case .comparison(let c): c.left.compilesStably && c.right.compilesStably
        case .and(let parts), .or(let parts): parts.allSatisfy(\.compilesStably)
        case .not(let inner): inner.compilesStably
        }
    }
}

extension ObjectExpression {
    /// See ``ObjectPredicate/compilesStably``.
    var compilesStably: Bool {
        switch self {
        case .constant(let value): value.isPlainData
        case .evaluatedObject, .keyPath, .anyKey: true
        case .variable, .function, .selector: false
        case .member(let base, _), .unary(_, let base), .cast(let base, _): base.compilesStably
        case .index(let base, let selector):
            if case .expression(let key) = selector, !key.compilesStably { false } else { base.compilesStably }
        case .aggregate(let elements): elements.allSatisfy(\.compilesStably)
        case .arithmetic(_, let left, let right): left.compilesStably && right.compilesStably
        case .subquery(let collection, _, let predicate): collection.compilesStably && predicate.compilesStably
        }
    }
}

extension PredicateValue {
    /// Whether the value is made of scalars only (no object, whose state may change).
    var isPlainData: Bool {
        switch self {
        case .null, .attribute: true
        case .array(let elements), .set(let elements): elements.allSatisfy(\.isPlainData)
        case .object: false
        }
    }
}
