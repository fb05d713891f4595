import GraphStore

// The BookStore classes as a hand-written app declares them (the generated ones live in
// examples/BookStore). Names carry a `Typed` prefix so that they do not meet other tests'.

final class TypedBook: ManagedObject, EntityObject {
    class var entityName: String { "Book" }
    class var relatedClasses: [any EntityObject.Type] { [TypedBookCategory.self, TypedPage.self] }
    private static let propertyNames: PropertyNames<TypedBook> = [
        \.title: "title", \.price: "price", \.category: "category", \.pages: "pages",
    ]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("title") var title: String?
    @Attribute("price") var price: Float
    @Relationship("category") var category: TypedBookCategory?
    @Relationship("pages") var pages: [TypedPage]
}

final class TypedBookCategory: ManagedObject, EntityObject {
    class var entityName: String { "BookCategory" }
    class var relatedClasses: [any EntityObject.Type] { [TypedBook.self] }
    private static let propertyNames: PropertyNames<TypedBookCategory> = [\.name: "name", \.books: "books"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("name") var name: String?
    @Relationship("books") var books: Set<TypedBook>
}

final class TypedPage: ManagedObject, EntityObject {
    class var entityName: String { "Page" }
    class var relatedClasses: [any EntityObject.Type] { [TypedBook.self] }
    private static let propertyNames: PropertyNames<TypedPage> = [\.text: "text", \.book: "book"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    @Attribute("text") var text: String?
    @Relationship("book") var book: TypedBook?
}
