import Foundation
@testable import GraphStore
import TestScratch

/// Models and files shared by the tests.
enum Fixtures {
    /// The BookStore model of "Pro iOS Persistence": BookCategory 1—* Book, Book 1—* Page (ordered).
    static func bookStoreModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
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
    }

    /// A fresh directory under the system's temporary directory.
    static func temporaryDirectory() throws -> URL {
        try ScratchDirectory.make("graphstore-tests")
    }

    /// A path for a new store in a fresh directory.
    static func newStorePath(_ name: String = "store.sqlite") throws -> String {
        try temporaryDirectory().appendingPathComponent(name).path
    }

    /// The bundled example store, `examples/BookStore/BookStore.sqlite` (only ever copied).
    static var exampleStore: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/BookStore/BookStore.sqlite").path
    }

    /// The shared corpus folder (`../shared/corpus` beside the package), if present.
    static var corpus: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The corpus, or nil after printing that the test skipped; under
    /// `GRAPHSTORE_REQUIRE_CORPUS=1` a missing corpus is an error.
    static func requireCorpus(_ test: String) throws -> URL? {
        if let corpus { return corpus }
        if ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] == "1" {
            throw CorpusMissing(test: test)
        }
        print("skipped \(test): ../shared/corpus is not present (GRAPHSTORE_REQUIRE_CORPUS=1 makes that a failure)")
        return nil
    }

    struct CorpusMissing: Error, CustomStringConvertible {
        var test: String
        var description: String { "\(test): ../shared/corpus is required (GRAPHSTORE_REQUIRE_CORPUS=1) but missing" }
    }

    /// Whether a path is an existing regular file (not a folder).
    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    /// SHA-like fingerprint of a file and its -wal/-shm (contents and sizes), to prove nothing changed.
    /// A second connection reading what `store` reads, for SQL that checks it: the store's
    /// private copy when it reads one, else its file, read the same way (its log replayed).
    static func rawReader(of store: PersistentStore) throws -> Connection {
        if let copy = store.privateCopy { return try Connection(path: copy, mode: .readOnly) }
        return try StoreFile.readOnlyConnection(to: store.file, path: store.path).connection
    }

    static func fingerprint(_ path: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { result[suffix] = data }
        }
        return result
    }
}

extension Fixtures {
    /// A model exercising the layout rules: inheritance (with a to-one to an entity that
    /// has sub-entities), many-to-many, ordered to-many, a fetch index, a uniqueness
    /// constraint, and every attribute type.
    static func layoutModel() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Writer") {
                AttributeDescription("name", .string)
                RelationshipDescription("favourite", to: "Book", inverse: "fans")
            }
            EntityDescription("Author", parent: "Writer") {
                AttributeDescription("alias", .string)
                RelationshipDescription("books", to: "Book", inverse: "authors", toMany: true)
                Unique("alias")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pageCount", .integer32)
                RelationshipDescription("authors", to: "Author", inverse: "books", toMany: true)
                RelationshipDescription("fans", to: "Writer", inverse: "favourite", toMany: true)
                RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true)
                FetchIndex("byTitle", ["title"])
            }
            EntityDescription("GraphicNovel", parent: "Book") {
                AttributeDescription("artist", .string)
            }
            EntityDescription("Page") {
                AttributeDescription("number", .integer16)
                RelationshipDescription("book", to: "Book", inverse: "pages")
            }
            EntityDescription("feedback") {
                AttributeDescription("int16", .integer16)
                AttributeDescription("int32", .integer32)
                AttributeDescription("int64", .integer64)
                AttributeDescription("decimal", .decimal)
                AttributeDescription("double", .double)
                AttributeDescription("float", .float)
                AttributeDescription("string", .string)
                AttributeDescription("boolean", .boolean)
                AttributeDescription("date", .date)
                AttributeDescription("binary", .binaryData)
                AttributeDescription("uuid", .uuid)
                AttributeDescription("uri", .uri)
                AttributeDescription("transformable", .transformable)
            }
        }
    }
}
