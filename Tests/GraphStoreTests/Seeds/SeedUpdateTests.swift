import Foundation
import GraphStore
import Testing
import TestScratch

/// Seed updates end to end on generated stores: `diff` by natural key, its update script
/// applied to the old store gives the new one (diff then reports nothing), a second run
/// changes nothing, users' own objects stay, and `SeedInstaller` copies or updates.
@Suite struct SeedUpdateTests {
    static let keyWords = ["Book=title", "BookCategory=name"]

    /// A store with `books` books in ten categories, inserted in `order` (so that two stores
    /// of the same books give them different Z_PKs), changed by `change` before it is saved.
    static func store(books: Int, reversed: Bool = false, change: (ManagedObjectContext, NaturalKeyIndex) throws -> Void = { _, _ in }) throws -> String {
        let model = try Fixtures.bookStoreModel()
        let path = try Fixtures.newStorePath()
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        var categories: [ManagedObject] = []
        for c in 0..<10 {
            let category = try context.insert("BookCategory")
            try category.setValue(.string("Category \(c)"), forKey: "name")
            categories.append(category)
        }
        let numbers = reversed ? Array((0..<books).reversed()) : Array(0..<books)
        for n in numbers {
            let book = try context.insert("Book")
            try book.setValue(.string("Book \(n)"), forKey: "title")
            try book.setValue(.double(Double(n % 50) + 0.5), forKey: "price")
            try book.setObject(categories[n % 10], forKey: "category")
        }
        try context.save()
        let index = NaturalKeyIndex(context: context, keys: try NaturalKeys(parsing: keyWords, model: model))
        try change(context, index)
        try context.save()
        try store.checkpoint()
        return path
    }

    static func diff(_ old: String, _ new: String) throws -> StoreDiff {
        let model = try Fixtures.bookStoreModel()
        let keys = try NaturalKeys(parsing: keyWords, model: model)
        return try StoreDiff(
            old: ManagedObjectContext(store: try PersistentStore(path: old, model: model)),
            new: ManagedObjectContext(store: try PersistentStore(path: new, model: model)), keys: keys)
    }

    static func apply(_ script: String, to path: String, version: String? = nil) throws -> SeedUpdate.Outcome {
        let store = try PersistentStore(path: path, model: try Fixtures.bookStoreModel(), readOnly: false)
        return try SeedUpdate(text: script).apply(to: ManagedObjectContext(store: store), version: version)
    }

    /// The next seed: 5% new books, 2% gone, 5% repriced, 1% moved, one new category.
    static func nextSeed(_ books: Int) throws -> String {
        try store(books: books, reversed: true) { context, index in
            let extra = try context.insert("BookCategory")
            try extra.setValue(.string("Category new"), forKey: "name")
            for n in stride(from: 0, to: books, by: 20) {
                let book = try context.insert("Book")
                try book.setValue(.string("New book \(n)"), forKey: "title")
                try book.setObject(extra, forKey: "category")
            }
            for n in stride(from: 1, to: books, by: 50) { try context.delete(try #require(try index.object(of: "Book", key: "Book \(n)"))) }
            for n in stride(from: 2, to: books, by: 20) { try #require(try index.object(of: "Book", key: "Book \(n)")).setValue(.double(99), forKey: "price") }
            for n in stride(from: 3, to: books, by: 100) {
                try #require(try index.object(of: "Book", key: "Book \(n)")).setObject(try index.object(of: "BookCategory", key: "Category 0"), forKey: "category")
            }
        }
    }

    @Test func theScriptTurnsTheOldSeedIntoTheNewAndASecondRunChangesNothing() throws {
        let books = 100_000
        let old = try Self.store(books: books)
        let new = try Self.nextSeed(books)
        let diff = try Self.diff(old, new)
        #expect(diff.warnings.isEmpty)
        let kinds = Dictionary(grouping: diff.changes, by: \.kind).mapValues(\.count)
        #expect(kinds[.added] == books / 20 + 1)
        #expect(kinds[.removed] == books / 50)
        let script = try diff.updateScript(header: "old → new")
        let first = try Self.apply(script, to: old)
        #expect(first.inserted == books / 20 + 1)
        #expect(first.deleted == books / 50)
        #expect(try Self.diff(old, new).changes.isEmpty)
        let second = try Self.apply(script, to: old)
        #expect(!second.changedAnything, "\(second)")
    }

    @Test func usersOwnObjectsAreNeverTouched() throws {
        let seed = try Self.store(books: 200)
        let next = try Self.nextSeed(200)
        let script = try Self.diff(seed, next).updateScript(header: "1 → 2")
        // The user's store: the first seed, plus books of their own in a seeded category.
        let user = try BrokenStores.copy(seed)
        let model = try Fixtures.bookStoreModel()
        do {
            let store = try PersistentStore(path: user, model: model, readOnly: false)
            let context = ManagedObjectContext(store: store)
            let index = NaturalKeyIndex(context: context, keys: try NaturalKeys(parsing: Self.keyWords, model: model))
            for n in 0..<3 {
                let mine = try context.insert("Book")
                try mine.setValue(.string("My book \(n)"), forKey: "title")
                try mine.setObject(try index.object(of: "BookCategory", key: "Category 1"), forKey: "category")
            }
            try context.save()
        }
        _ = try Self.apply(script, to: user, version: "2")
        let changes = try Self.diff(next, user).changes
        // Only the user's books tell the user's store from the new seed: they are as made,
        // and still in their category.
        #expect(changes.map(\.key).sorted() == ["Category 1", "My book 0", "My book 1", "My book 2"])
        let mine = changes.filter { $0.key.hasPrefix("My book") }
        #expect(mine.allSatisfy { $0.kind == .added && $0.properties.contains { $0.name == "category" && $0.new == .text("Category 1") } })
        let category = try #require(changes.first { $0.key == "Category 1" })
        guard case .keys(let seeded)? = category.properties.first(where: { $0.name == "books" })?.old,
            case .keys(let users)? = category.properties.first(where: { $0.name == "books" })?.new
        else {
            Issue.record("Category 1's books should differ")
            return
        }
        #expect(Set(users).subtracting(seeded) == ["My book 0", "My book 1", "My book 2"])
        #expect(try PersistentStore(path: user, model: model).metadata.properties[SeedUpdate.versionKey] as? String == "2")
    }

    @Test func aStepThatFailsKeepsNothingAndNamesItsLine() throws {
        let seed = try Self.store(books: 10)
        let before = try Self.diff(seed, seed).changes.count
        let script = "# keys: Book=title,BookCategory=name\ninsert Book {\"title\": \"Fresh\"}\nset Book {\"title\": \"Book 1\", \"price\": \"cheap\"}\n"
        #expect { try Self.apply(script, to: seed) } throws: { "\($0)".hasPrefix("update:3: set Book: price: \"cheap\" is not a number") }
        let model = try Fixtures.bookStoreModel()
        let context = ManagedObjectContext(store: try PersistentStore(path: seed, model: model))
        #expect(try context.count(for: FetchRequest(entityName: "Book")) == 10)
        #expect(before == 0)
    }

    @Test func theInstallerCopiesTheSeedOnceThenAppliesPendingUpdates() throws {
        let model = try Fixtures.bookStoreModel()
        let seed1 = try Self.store(books: 30)
        let seed2 = try Self.nextSeed(30)
        let update2 = try Self.diff(seed1, seed2).updateScript(header: "1 → 2")
        let target = try Fixtures.newStorePath("App.sqlite")
        let first = SeedInstaller(storePath: target, seedPath: seed1, seedVersion: "1", updates: [], model: model)
        #expect(try first.install() == .copiedSeed(version: "1"))
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
        #expect(try Self.diff(seed1, target).changes.isEmpty)
        // The next release bundles seed 2 and the update from 1 to 2.
        let second = SeedInstaller(storePath: target, seedPath: seed2, seedVersion: "2", updates: [.init(version: "2", text: update2)], model: model)
        guard case .applied(let outcomes, let version) = try second.install() else {
            Issue.record("expected updates applied")
            return
        }
        #expect(version == "2")
        #expect(outcomes["2"]?.changedAnything == true)
        #expect(try Self.diff(seed2, target).changes.isEmpty)
        #expect(try second.install() == .applied([:], version: "2"))
        // A fresh install of the new release gets seed 2 as it is.
        let fresh = try Fixtures.newStorePath("Fresh.sqlite")
        _ = try SeedInstaller(storePath: fresh, seedPath: seed2, seedVersion: "2", updates: [.init(version: "2", text: update2)], model: model).install()
        #expect(try Self.diff(seed2, fresh).changes.isEmpty)
    }

    // MARK: - Deletes that would cascade to a user's objects

    /// Seed 1 and 2 of the book store: Biography, with a seeded book, is gone from seed 2.
    static func biographySeeds() throws -> (seed1: String, seed2: String, user: String, script: String) {
        let seed1 = try store(books: 20) { context, index in
            let biography = try context.insert("BookCategory")
            try biography.setValue(.string("Biography"), forKey: "name")
            let lives = try context.insert("Book")
            try lives.setValue(.string("Lives"), forKey: "title")
            try lives.setObject(biography, forKey: "category")
        }
        let seed2 = try store(books: 20)
        let script = try diff(seed1, seed2).updateScript(header: "1 → 2")
        let user = try BrokenStores.copy(seed1)
        let model = try Fixtures.bookStoreModel()
        let context = ManagedObjectContext(store: try PersistentStore(path: user, model: model, readOnly: false))
        let index = NaturalKeyIndex(context: context, keys: try NaturalKeys(parsing: keyWords, model: model))
        let memoir = try context.insert("Book")
        try memoir.setValue(.string("My memoir"), forKey: "title")
        try memoir.setObject(try index.object(of: "BookCategory", key: "Biography"), forKey: "category")
        try context.save()
        return (seed1, seed2, user, script)
    }

    @Test func aDeleteThatWouldCascadeToAUsersObjectIsNotDoneAndSaysWhy() throws {
        let (_, seed2, user, script) = try Self.biographySeeds()
        #expect(script.contains("delete BookCategory {\"name\": \"Biography\"}"))
        let dryRun = try SeedUpdate(text: script).apply(
            to: ManagedObjectContext(store: try PersistentStore(path: user, model: try Fixtures.bookStoreModel(), readOnly: false)), dryRun: true)
        #expect(dryRun.kept.count == 1)
        #expect(dryRun.kept.first?.contains("BookCategory Biography is kept: deleting it would also delete Book My memoir (by a cascade rule)") == true, "\(dryRun.kept)")
        let outcome = try Self.apply(script, to: user, version: "2")
        #expect(outcome.kept == dryRun.kept)
        #expect(outcome.deleted == 1, "the seeded book Lives goes; Biography stays: \(outcome)")
        // The user's book and the category it needs are there; nothing else differs from seed 2.
        let changes = try Self.diff(seed2, user).changes
        #expect(changes.map { "\($0.kind) \($0.entity) \($0.key)" }.sorted() == ["added Book My memoir", "added BookCategory Biography"])
        #expect("\(outcome)".hasSuffix(", 1 kept for objects the update does not delete"))
    }

    // MARK: - Writes that change nothing

    @Test func anUpdateThatChangesNothingLeavesEveryByteOfTheStore() throws {
        let seed1 = try Self.store(books: 30)
        let seed2 = try Self.nextSeed(30)
        let script = try Self.diff(seed1, seed2).updateScript(header: "1 → 2")
        let target = try BrokenStores.copy(seed1)
        _ = try Self.apply(script, to: target, version: "2")
        let before = BrokenStores.bytes(of: target)
        let again = try Self.apply(script, to: target, version: "2")
        #expect(!again.changedAnything)
        #expect(BrokenStores.bytes(of: target) == before, "the second run wrote to \(BrokenStores.bytes(of: target).keys.sorted())")
        // The same value set again, and a save with nothing to save, write nothing either.
        do {
            let store = try PersistentStore(path: target, model: try Fixtures.bookStoreModel(), readOnly: false)
            try store.setMetadataValue("2", forKey: SeedUpdate.versionKey)
            try ManagedObjectContext(store: store).save()
        }
        #expect(BrokenStores.bytes(of: target) == before)
    }

    // MARK: - Keys of several parts, and scripts that would leave a difference

    /// Pages have no key of their own; `Page=text+book` names them by their text and book.
    @Test func aKeyOfSeveralPartsNamesObjectsThroughAToOne() throws {
        let model = try Fixtures.bookStoreModel()
        func pages(_ texts: [String: [String]]) throws -> String {
            try Self.store(books: 3) { context, index in
                for (title, list) in texts.sorted(by: { $0.key < $1.key }) {
                    let book = try #require(try index.object(of: "Book", key: title))
                    for text in list {
                        let page = try context.insert("Page")
                        try page.setValue(.string(text), forKey: "text")
                        try book.add(page, toKey: "pages")
                    }
                }
            }
        }
        let old = try pages(["Book 0": ["one", "two"], "Book 1": ["one"]])
        let new = try pages(["Book 0": ["one", "two", "three"], "Book 2": ["one"]])
        let open = { (path: String) in ManagedObjectContext(store: try PersistentStore(path: path, model: model)) }
        // Without a key for Page, no script: the pages would be left as they are.
        let bare = try StoreDiff(old: try open(old), new: try open(new), keys: try NaturalKeys(parsing: Self.keyWords, model: model))
        #expect(throws: ScriptRefusal.self) { try bare.updateScript(header: "bare") }
        #expect(bare.scriptProblems.contains { $0.entity == "Page" })
        let keys = try NaturalKeys(parsing: Self.keyWords + ["Page=text+book"], model: model)
        let diff = try StoreDiff(old: try open(old), new: try open(new), keys: keys)
        #expect(diff.changes.filter { $0.entity == "Page" }.map(\.key).sorted() == [#"["one","Book 1"]"#, #"["one","Book 2"]"#, #"["three","Book 0"]"#])
        let script = try diff.verifiedUpdateScript(header: "pages", old: try open(old), new: try open(new))
        #expect(script.contains(#"insert Page {"text": "three", "book": "Book 0"}"#), "\(script)")
        let target = try BrokenStores.copy(old)
        _ = try Self.apply(script, to: target)
        #expect(try StoreDiff(old: try open(target), new: try open(new), keys: keys).changes.isEmpty)
        // A part that is a to-many, or leads to an entity with no key, is refused by name.
        #expect { try NaturalKeys(parsing: ["Book=title+pages"], model: model) } throws: { "\($0)".contains("Book.pages is a to-many relationship") }
        #expect { try NaturalKeys(parsing: ["Page=text+book"], model: model) } throws: { "\($0)".contains("Page.book leads to Book, which has no key") }
    }

    @Test func aReorderedOrderedToManyIsRefusedRatherThanLeftOut() throws {
        let model = try Fixtures.bookStoreModel()
        func pages(_ texts: [String]) throws -> String {
            try Self.store(books: 1) { context, index in
                let book = try #require(try index.object(of: "Book", key: "Book 0"))
                for text in texts {
                    let page = try context.insert("Page")
                    try page.setValue(.string(text), forKey: "text")
                    try book.add(page, toKey: "pages")
                }
            }
        }
        let old = try pages(["a", "b", "c"])
        let new = try pages(["c", "a", "b"])
        let keys = try NaturalKeys(parsing: Self.keyWords + ["Page=text"], model: model)
        let open = { (path: String) in ManagedObjectContext(store: try PersistentStore(path: path, model: model)) }
        let diff = try StoreDiff(old: try open(old), new: try open(new), keys: keys)
        #expect(!diff.changes.isEmpty)
        #expect { try diff.updateScript(header: "reorder") } throws: { "\($0)".contains("Book.pages of Book 0 is reordered") }
    }
}
