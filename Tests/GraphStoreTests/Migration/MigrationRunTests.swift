import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Running migrations on built models: objects, keys, renames, defaults, join tables
    /// and ordering carried; the store replaced only when the new file is whole; a failure
    /// or a dry run leaves the store as it was.
    @Suite struct MigrationRunTests {
        typealias F = MigrationFixtures

        /// v1: Author ⟷ Book many-to-many, Book → Page ordered; `author` and `book` are
        /// the attributes of Author and Book (a later version of the same shape changes them).
        static func v1(
            author: [AttributeDescription] = [AttributeDescription("name", .string)],
            book: [AttributeDescription] = [AttributeDescription("title", .string), AttributeDescription("price", .double)]
        ) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription("Author", attributes: author, relationships: [
                    RelationshipDescription("books", to: "Book", inverse: "authors", toMany: true)
                ]),
                EntityDescription("Book", attributes: book, relationships: [
                    RelationshipDescription("authors", to: "Author", inverse: "books", toMany: true),
                    RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true),
                ]),
                EntityDescription("Page", attributes: [AttributeDescription("number", .integer16)], relationships: [
                    RelationshipDescription("book", to: "Book", inverse: "pages")
                ]),
            ])
        }

        /// v2: Book renamed Publication, title renamed name, a required stock with a
        /// default, a new entity, price required with a default.
        static func v2() throws -> ManagedObjectModel {
            let publication = F.renamed(EntityDescription("Publication") {
                F.renamed(AttributeDescription("name", .string), from: "title")
                AttributeDescription("price", .double, optional: false, default: .double(9.5))
                AttributeDescription("stock", .integer32, optional: false, default: .integer(5))
                RelationshipDescription("authors", to: "Author", inverse: "books", toMany: true)
                RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true)
            }, from: "Book")
            return try ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription("books", to: "Publication", inverse: "authors", toMany: true)
                }
                publication
                EntityDescription("Page") {
                    AttributeDescription("number", .integer16)
                    RelationshipDescription("book", to: "Publication", inverse: "pages")
                }
                EntityDescription("Shelf") { AttributeDescription("label", .string) }
            }
        }

        /// A v1 store: two authors, three books (one without a price), pages in order.
        static func store() throws -> String {
            let path = try Fixtures.newStorePath()
            let store = try PersistentStore.create(at: path, model: try v1())
            let context = ManagedObjectContext(store: store)
            let ann = try context.insert("Author")
            try ann.set("name", "Ann")
            let bob = try context.insert("Author")
            try bob.set("name", "Bob")
            for (index, title) in ["Dune", "Emma", "Ulysses"].enumerated() {
                let book = try context.insert("Book")
                try book.set("title", title)
                if index > 0 { try book.set("price", Double(index) * 10) }
                try book.add(ann, toKey: "authors")
                if index == 1 { try book.add(bob, toKey: "authors") }
                for number in [3, 1, 2] {
                    let page = try context.insert("Page")
                    try page.set("number", Int16(number + index * 10))
                    try book.add(page, toKey: "pages")
                }
            }
            try context.save()
            try store.checkpoint()
            return path
        }

        static func limited(_ attribute: AttributeDescription, maxLength: Int) -> AttributeDescription {
            var copy = attribute
            copy.maxLength = maxLength
            return copy
        }

        static func manager() throws -> MigrationManager {
            MigrationManager(versions: F.versions(try v1(), try v2()))
        }

        @Test func carriesObjectsKeysRenamesDefaultsAndOrder() throws {
            let path = try Self.store()
            let uuid = try PersistentStore(path: path).uuid
            let outcome = try Self.manager().migrate(storeAt: path)
            #expect(outcome.replacedStore && outcome.backup == MigrationManager.backupPath(for: path))
            #expect(outcome.objectCounts == ["Author": 2, "Publication": 3, "Page": 9, "Shelf": 0])
            let store = try PersistentStore(path: path, model: try Self.v2(), readOnly: false)
            #expect(store.uuid == uuid)
            #expect(store.metadata.versionHashes == (try Self.v2()).entityVersionHashes)
            let context = ManagedObjectContext(store: store)
            let books = try context.fetch("Publication").sorted { $0.objectID.primaryKey ?? 0 < $1.objectID.primaryKey ?? 0 }
            #expect(books.map { $0.objectID.primaryKey } == [1, 2, 3])
            #expect(try books.map { try $0.get("name", as: String.self) } == ["Dune", "Emma", "Ulysses"])
            #expect(try books.map { try $0.get("price", as: Double.self) } == [9.5, 10, 20])
            #expect(try books.map { try $0.get("stock", as: Int.self) } == [5, 5, 5])
            #expect(try books.map { try $0.objects(forKey: "authors").count } == [1, 2, 1])
            #expect(try books[2].objects(forKey: "pages").map { try $0.get("number", as: Int.self) } == [23, 21, 22])
            // New objects get keys above every copied one.
            let shelf = try context.insert("Shelf")
            let more = try context.insert("Publication")
            try more.set("name", "New")
            try context.save()
            #expect(shelf.objectID.primaryKey == 1 && more.objectID.primaryKey == 4)
            // The backup is the old store, whole.
            let backup = try PersistentStore(path: MigrationManager.backupPath(for: path), model: try Self.v1())
            #expect(try backup.count(of: backup.mapping(for: "Book")) == 3)
        }

        /// A store with values kept outside the database: the migrated store reads them from
        /// its support folder, and the backup from a copy of its own.
        @Test func externalDataFilesStayReadableInTheStoreAndTheBackup() throws {
            var photo = AttributeDescription("photo", .binaryData)
            photo.allowsExternalBinaryDataStorage = true
            let v1 = try Self.v1(book: [AttributeDescription("title", .string), photo])
            let v2 = try Self.v1(book: [AttributeDescription("title", .string), photo, AttributeDescription("isbn", .string)])
            let path = try Fixtures.newStorePath()
            let large = Data(repeating: 3, count: PersistentStore.externalDataThreshold + 1)
            // Closed before the migration, which refuses while a store is open for writing.
            do {
                let store = try PersistentStore.create(at: path, model: v1)
                let context = ManagedObjectContext(store: store)
                try context.insert("Book").set("photo", large)
                try context.save()
                try store.checkpoint()
            }
            let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            let backup = try #require(outcome.backup)
            for (file, model) in [(path, v2), (backup, v1)] {
                let book = try #require(try ManagedObjectContext(store: try PersistentStore(path: file, model: model)).fetch("Book").first)
                #expect(try book.get("photo", as: Data.self) == large, "\(file)")
            }
        }

        @Test func dryRunChangesNotOneByte() throws {
            let path = try Self.store()
            let before = Fixtures.fingerprint(path)
            let outcome = try Self.manager().migrate(storeAt: path, options: .init(isDryRun: true))
            #expect(!outcome.replacedStore && outcome.validationFailures.isEmpty && outcome.objectCounts["Publication"] == 3)
            #expect(Fixtures.fingerprint(path) == before)
            #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
        }

        @Test func noBackupWhenToldNot() throws {
            let path = try Self.store()
            let outcome = try Self.manager().migrate(storeAt: path, options: .init(keepsBackup: false))
            #expect(outcome.replacedStore && outcome.backup == nil)
            #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
            let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(left.allSatisfy { !$0.contains("migrating") }, "\(left)")
        }

        /// A destination whose validation the objects fail: refused, nothing changed.
        @Test func failedValidationLeavesTheStoreAsItWas() throws {
            let path = try Self.store()
            let strict = try Self.v1(
                author: [AttributeDescription("name", .string, optional: false, default: .string("x"))],
                book: [
                    Self.limited(AttributeDescription("title", .string), maxLength: 4), AttributeDescription("price", .double),
                    AttributeDescription("isbn", .string),
                ])
            let before = Fixtures.fingerprint(path)
            let manager = MigrationManager(versions: F.versions(try Self.v1(), strict))
            let error = try #require(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            guard case .validationFailed(_, let failures) = error else { Issue.record("\(error)"); return }
            #expect(failures.count == 1 && failures.allSatisfy { $0.contains("title") }, "\(failures)")
            #expect(error.code == 134110)
            #expect(Fixtures.fingerprint(path) == before)
            let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(left.sorted() == ["store.sqlite"], "\(left)")
        }

        @Test func refusedPlanIsNotRun() throws {
            let path = try Self.store()
            let required = try Self.v1(author: [AttributeDescription("name", .string), AttributeDescription("born", .integer32, optional: false)])
            let before = Fixtures.fingerprint(path)
            let manager = MigrationManager(versions: F.versions(try Self.v1(), required))
            let error = try #require(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            #expect("\(error)".contains("Author.born: is a new required attribute with no default value"))
            #expect(error.code == 134110)
            #expect(Fixtures.fingerprint(path) == before)
        }
    }
}

extension MigrationTests.MigrationRunTests {
    /// Core Data's automatic migration options: an old store is migrated, then opened with
    /// the current version; without the option it is refused with 134100 and left alone.
    @Test func openingMigratesAutomaticallyWhenAsked() throws {
        let path = try Self.store()
        let versions = MigrationFixtures.versions(try Self.v1(), try Self.v2())
        let before = Fixtures.fingerprint(path)
        let refusal = #expect(throws: StoreError.self) { try PersistentStore(path: path, versions: versions, migrateAutomatically: false) }
        #expect(refusal?.code == 134100)
        #expect(Fixtures.fingerprint(path) == before)
        let store = try PersistentStore(path: path, versions: versions, migrateAutomatically: true)
        let hashes = try Self.v2().entityVersionHashes
        #expect(!store.isReadOnly && store.metadata.versionHashes == hashes)
        #expect(try store.count(of: store.mapping(for: "Publication")) == 3)
        #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
        // Opening again finds nothing to migrate.
        let again = try PersistentStore(path: path, versions: versions, migrateAutomatically: false)
        #expect(again.uuid == store.uuid)
    }
}
