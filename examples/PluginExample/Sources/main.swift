// The GraphStoreCodegen build-tool plugin: Book, BookCategory and Page are generated from
// BookStore.xcdatamodeld when this program is built (none are checked in), then used.
//
//     swift run plugin-example /tmp/Plugin.sqlite
import Foundation
import GraphStore

let path = CommandLine.arguments.dropFirst().first ?? "Plugin.sqlite"
let model = try ModelFile(path: Bundle.module.path(forResource: "BookStore", ofType: "xcdatamodeld") ?? "BookStore.xcdatamodeld").model
do {
    let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
    let fiction = BookCategory(context: context)
    fiction.name = "Fiction"
    let book = Book(context: context)
    book.title = "Generated at build time"
    book.price = 16
    book.category = fiction
    try context.save()
    for book in try context.fetch(FetchRequest<Book>(predicate: #Predicate { $0.category?.name == "Fiction" })) {
        print("\(book.title ?? "") in \(book.category?.name ?? ""), \(fiction.books.count) book(s)")
    }
} catch {
    FileHandle.standardError.write(Data("plugin-example: \(error)\n".utf8))
    exit(1)
}
