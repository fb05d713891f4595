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
    /// (strings compare as the store compares them, by their bytes). A key path through an
    /// optional to-one (`\Recipe.type?.name`) names the destination's attribute
    /// (`type.name`), as the class's property names list it; rows without a destination
    /// sort where the store puts NULL, first when ascending.
    static func sortKey(_ descriptor: SortDescriptor<Result>) throws(PredicateTranslationError) -> SortKey {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateTranslationError(
                part: "SortDescriptor(comparator)", reason: "a comparator runs in Swift, on objects: only a key path to a property of the model can sort a fetch")
        }
        guard let name = Result.propertyName(for: keyPath) else {
            let root = type(of: keyPath).rootType, value = type(of: keyPath).valueType
            throw PredicateTranslationError(
                part: "SortDescriptor(a key path of \(root) to \(value))",
                reason: "it is not one of \(root)'s model properties, nor an attribute of a to-one's destination read through the optional (\\.category?.name), "
                    + "the key paths \(root).propertyName(for:) names (generated classes name both); for a longer path, sort with SortKey(\"a.b.c\")")
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
    /// Runs a typed request as its ``FetchRequest/resultType`` says (see
    /// ``execute(_:)-(FetchRequest<ManagedObject>)``), objects as instances of its class.
    ///
    /// ```swift
    /// var request = try FetchRequest<Book>(predicate: #Predicate { $0.price < 20 })
    /// request.resultType = .count
    /// let cheap = try context.execute(request).count
    /// ```
    public func execute<T: EntityObject>(_ request: FetchRequest<T>) throws -> FetchResult<T> {
        register(T.self)
        return try execute(request.untyped).map { try $0.typed(T.self) }
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
