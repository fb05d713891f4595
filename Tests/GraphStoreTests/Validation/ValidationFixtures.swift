import Foundation
@testable import GraphStore

/// Models and helpers for the validation tests.
enum ValidationFixtures {
    static let epoch = Date(timeIntervalSince1970: 0)
    static let y2k = Date(timeIntervalSince1970: 946_684_800)

    /// One attribute per rule, plus relationships with size rules.
    static func rulesModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string).required().length(2...20)
                AttributeDescription("isbn", .string).pattern("[0-9]{3}-[0-9]+")
                AttributeDescription("price", .double).minimum(15).maximum(100)
                AttributeDescription("pages", .integer16).minimum(1)
                AttributeDescription("published", .date).dates(from: epoch, to: y2k)
                AttributeDescription("cover", .binaryData).maxLength(4)
                AttributeDescription("note", .string)
                RelationshipDescription("publisher", to: "Publisher", inverse: "books").required()
                RelationshipDescription("authors", to: "Author", inverse: "books", toMany: true).count(2...3)
                RelationshipDescription("chapters", to: "Chapter", inverse: "book", toMany: true, ordered: true).required().minCount(1)
                Unique("isbn")
            }
            EntityDescription("Publisher") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "publisher", toMany: true).deleteRule(.deny)
            }
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                RelationshipDescription("books", to: "Book", inverse: "authors", toMany: true)
            }
            EntityDescription("Chapter") {
                AttributeDescription("title", .string)
                RelationshipDescription("book", to: "Book", inverse: "chapters")
            }
        }
    }

    /// A context on a new store of a model, and the store's path.
    static func newContext(_ model: ManagedObjectModel) throws -> (ManagedObjectContext, String) {
        let path = try Fixtures.newStorePath()
        return (ManagedObjectContext(store: try PersistentStore.create(at: path, model: model)), path)
    }

    /// A context on an existing store, for writing.
    static func reopen(_ path: String, _ model: ManagedObjectModel) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore(path: path, model: model, readOnly: false))
    }

    /// A book that passes every rule of ``rulesModel()``: title, price, a publisher, two
    /// authors and a chapter.
    static func validBook(_ context: ManagedObjectContext, isbn: String? = nil) throws -> ManagedObject {
        let book = try context.insert("Book")
        try book.set("title", "Dune")
        try book.set("price", 20.0)
        if let isbn { try book.set("isbn", isbn) }
        try book.setObject(try context.insert("Publisher"), forKey: "publisher")
        for _ in 0..<2 { try book.add(try context.insert("Author"), toKey: "authors") }
        try book.add(try context.insert("Chapter"), toKey: "chapters")
        return book
    }

    /// The validation failures `body` throws, or [] when it throws none.
    static func failures(_ body: () throws -> Void) throws -> [ValidationError] {
        do {
            try body()
            return []
        } catch let failure as any ValidationErrorReporting {
            return failure.validationErrors
        }
    }

    /// The SQL rows of a query, as text.
    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try Connection(path: path, mode: .readOnly).rows(sql).map { $0.map(\.description) }
    }
}
