// The BookStore of "Pro iOS Persistence" (Apress), chapters 4 and 6: creates a store in Core
// Data's layout, seeds it with two categories and three books, then tries the validation
// exercise of chapter 6: with a minimum price of 15, books priced 5…9 are refused, each
// with a message that says why.
//
//     swift run bookstore-example /tmp/BookStore.sqlite
//     graphstore --write --model examples/BookStore/BookStore.xcdatamodeld /tmp/BookStore.sqlite \
//         < examples/BookStore/validation.graphstore
//
// The bundled examples/BookStore/BookStore.sqlite is chapter 4's seed, made before the rule
// (two books at 10): saving never checked them against it, `validate` does (bundled.graphstore).
import Foundation
import GraphStore

let path = CommandLine.arguments.dropFirst().first ?? "BookStore.sqlite"

// The model in Swift; BookStore.xcdatamodeld is the same model as an Xcode file, for the REPL
// (the example test runs the REPL scripts on this program's store with that file, so the two are held to the same rules).
let model = try ManagedObjectModel {
    EntityDescription("BookCategory") {
        AttributeDescription("name", .string)
        RelationshipDescription("books", to: "Book", inverse: "category", toMany: true).deleteRule(.cascade)
    }
    EntityDescription("Book") {
        AttributeDescription("title", .string)
        AttributeDescription("price", .float).minimum(15)
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
        ("The first book", 15.0, fiction), ("The second book", 20.0, fiction), ("The third book", 18.0, biography),
    ] {
        let book = try context.insert("Book")
        try book.set("title", title)
        try book.set("price", price)
        try book.setObject(category, forKey: "category")
    }
    try context.save()
    try store.checkpoint()
    print("created \(path): \(try context.fetch("BookCategory").count) categories, \(try context.fetch("Book").count) books")

    // Chapter 6: books cheaper than the minimum are refused, all of them at once (1560).
    for price in 5...9 {
        let book = try context.insert("Book")
        try book.set("title", "Bargain at \(price)")
        try book.set("price", Double(price))
        try book.setObject(fiction, forKey: "category")
    }
    do {
        try context.save()
    } catch let failure as MultipleValidationErrors {
        print("saving five bargains failed (\(failure.code)), nothing was written:")
        for error in failure.errors { print("  \(error.code) \(error)") }
        context.rollback()
    }
    print("the store still holds \(try context.fetch("Book").count) books")
} catch {
    FileHandle.standardError.write(Data("bookstore-example: \(error)\n".utf8))
    exit(1)
}
