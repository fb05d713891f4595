// The BookStore of "Pro iOS Persistence" (Apress), chapter 4: creates a store in Core
// Data's layout and seeds it with two categories and three books.
//
//     swift run bookstore-example examples/BookStore/BookStore.sqlite
import Foundation
import GraphStore

let path = CommandLine.arguments.dropFirst().first ?? "BookStore.sqlite"

let model = try ManagedObjectModel {
    EntityDescription("BookCategory") {
        AttributeDescription("name", .string)
        RelationshipDescription("books", to: "Book", inverse: "category", toMany: true).deleteRule(.cascade)
    }
    EntityDescription("Book") {
        AttributeDescription("title", .string)
        AttributeDescription("price", .float)
        RelationshipDescription("category", to: "BookCategory", inverse: "books")
        RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true).deleteRule(.cascade)
    }
    EntityDescription("Page") {
        AttributeDescription("text", .string)
        RelationshipDescription("book", to: "Book", inverse: "pages")
    }
}

do {
    let store = try PersistentStore.create(at: path, model: model)
    let context = ManagedObjectContext(store: store)

    let fiction = try context.insert("BookCategory")
    try fiction.set("name", "Fiction")
    let biography = try context.insert("BookCategory")
    try biography.set("name", "Biography")

    for (title, price, category) in [
        ("The first book", 10.0, fiction), ("The second book", 15.0, fiction), ("The third book", 10.0, biography),
    ] {
        let book = try context.insert("Book")
        try book.set("title", title)
        try book.set("price", price)
        try book.setObject(category, forKey: "category")
    }
    try context.save()
    try store.checkpoint()
    print("created \(path): \(try context.fetch("BookCategory").count) categories, \(try context.fetch("Book").count) books")
} catch {
    FileHandle.standardError.write(Data("bookstore-example: \(error)\n".utf8))
    exit(1)
}
