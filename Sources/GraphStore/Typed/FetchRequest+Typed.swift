import Foundation

/// Requests for a class: `#Predicate` and `SortDescriptor` by key path, translated once,
/// when the request is made, into the predicate language (the same tree, so the same SQL,
/// as the format string that says the same). A request is a value: keep it and fetch with
/// it again to skip the translation.
extension FetchRequest where Result: EntityObject {
    /// A request for the objects of `Result`'s entity that match `predicate`, sorted.
    ///
    /// ```swift
    /// let request = try FetchRequest<Book>(predicate: #Predicate { $0.price < 20 && $0.title != nil },
    ///                                      sortBy: [SortDescriptor(\.title)])
    /// for book in try context.fetch(request) { print(book.title ?? "") }
    /// ```
    ///
    /// - Throws: ``PredicateTranslationError`` naming the part of the predicate or the sort
    ///   descriptor that has no counterpart in a fetch (never a fetch of everything).
    public init(predicate: Predicate<Result>? = nil, sortBy: [SortDescriptor<Result>] = []) throws(PredicateTranslationError) {
        self.init(uncheckedEntityName: Result.entityName, predicate: try predicate.map(PredicateTranslator.translate), sortKeys: try sortBy.map(Self.sortKey))
    }

    /// A request for `Result`'s objects with a format-string predicate.
    ///
    /// ```swift
    /// let request = try FetchRequest<Book>(format: "category.name == %@", "Fiction")
    /// ```
    public init(format: String, _ arguments: any PredicateArgument...) throws {
        self.init(uncheckedEntityName: Result.entityName, predicate: try ObjectPredicate(format: format, argumentArray: arguments), sortKeys: [])
    }

    /// The sort key of a descriptor: the model's name for its key path, ascending or not
    /// (strings compare as the store compares them, by their bytes).
    static func sortKey(_ descriptor: SortDescriptor<Result>) throws(PredicateTranslationError) -> SortKey {
        guard let keyPath = descriptor.keyPath, let name = Result.propertyName(for: keyPath) else {
            throw PredicateTranslationError(part: "SortDescriptor(\(descriptor.keyPath.map { "\($0)" } ?? "a comparator"))", reason: "only a key path to a property of the model can sort a fetch")
        }
        return SortKey(name, ascending: descriptor.order == .forward)
    }
}

extension ManagedObjectContext {
    /// The objects of a typed request, as instances of its class (registered with the
    /// context first: see ``register(_:)``).
    ///
    /// ```swift
    /// let cheap = try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.price < 20 }))
    /// ```
    public func fetch<T: EntityObject>(_ request: FetchRequest<T>) throws -> [T] {
        register(T.self)
        return try fetch(request.untyped).map { try $0.typed(T.self) }
    }
}

extension ManagedObjectContext {
    /// The object with an ID (from another context, say) as an instance of its class.
    ///
    /// ```swift
    /// let book = try context.object(for: id, as: Book.self)
    /// ```
    public func object<T: EntityObject>(for id: ObjectID, as type: T.Type) throws -> T {
        register(T.self)
        return try object(for: id).typed(T.self)
    }
}
