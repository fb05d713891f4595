// The BookStore of "Pro iOS Persistence" (Apress), chapters 4 and 6: creates a store in Core
// Data's layout, seeds it with two categories and three books, then tries the validation
// exercise of chapter 6: with a minimum price of 15, books priced 5…9 are refused, each
// with a message that says why.
//
//     swift run bookstore-example /tmp/BookStore.sqlite
//     swift run bookstore-example --list STORE      # any BookStore store, read-only
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

// `--list STORE`: the books of a store someone else wrote (Core Data's own seed.sqlite, say),
// read-only, through the generated classes.
if path == "--list" {
    do {
        let context = ManagedObjectContext(store: try PersistentStore(path: CommandLine.arguments.dropFirst(2).first ?? "BookStore.sqlite", model: model))
        for book in try context.fetch(FetchRequest<Book>(sortBy: [SortDescriptor(\.title)])) {
            print("\(book.title ?? "") (\(book.category?.name ?? "no category")): \(book.price), \(book.pages.count) pages")
        }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("bookstore-example: \(error)\n".utf8))
        exit(1)
    }
}

do {
    let store = try PersistentStore.create(at: path, model: model)
    let context = ManagedObjectContext(store: store)

    // Book, BookCategory and Page are generated from BookStore.xcdatamodeld (Sources/Model;
    // `graphstore codegen --model examples/BookStore/BookStore.xcdatamodeld --output
    // examples/BookStore/Sources/Model` writes them again, and a test checks they match).
    let fiction = BookCategory(context: context)
    fiction.name = "Fiction"
    let biography = BookCategory(context: context)
    biography.name = "Biography"

    for (title, price, category) in [
        ("The first book", 15 as Float, fiction), ("The second book", 20, fiction), ("The third book", 18, biography),
    ] {
        let book = Book(context: context)
        book.title = title
        book.price = price
        book.category = category          // category.books now holds the book
    }
    try context.save()
    try store.checkpoint()
    print("created \(path): \(try context.fetch(FetchRequest<BookCategory>()).count) categories, \(try context.fetch(FetchRequest<Book>()).count) books")

    // Chapter 6: books cheaper than the minimum are refused, all of them at once (1560).
    for price in 5...9 {
        let book = Book(context: context)
        book.title = "Bargain at \(price)"
        book.price = Float(price)
        book.category = fiction
    }
    do {
        try context.save()
    } catch let failure as MultipleValidationErrors {
        print("saving five bargains failed (\(failure.code)), nothing was written:")
        for error in failure.errors { print("  \(error.code) \(error)") }
        context.rollback()
    }
    print("the store still holds \(try context.fetch(FetchRequest<Book>()).count) books")

    // A typed fetch: #Predicate and SortDescriptor, translated to the store's SQL.
    let cheap = try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.price < 20 && $0.title != nil }, sortBy: [SortDescriptor(\.title)]))
    for book in cheap { print("under 20: \(book.title ?? "") (\(book.category?.name ?? "")), \(book.pages.count) pages") }
} catch {
    FileHandle.standardError.write(Data("bookstore-example: \(error)\n".utf8))
    exit(1)
}
