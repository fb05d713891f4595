import CSQLiteRaw
import Foundation
import GraphStore

/// The WordList workload of "Pro iOS Persistence": words with their text, length and a
/// category per first letter.
enum WordList {
    /// The model; `indexed` adds the `byText` fetch index (the 1M-word fetch benchmark).
    static let model = makeModel(indexed: false)
    static let indexedModel = makeModel(indexed: true)

    static func makeModel(indexed: Bool) -> ManagedObjectModel {
        do {
            return try ManagedObjectModel {
                EntityDescription("WordCategory") {
                    AttributeDescription("firstLetter", .string)
                    RelationshipDescription("words", to: "Word", inverse: "wordCategory", toMany: true)
                }
                EntityDescription("Word") {
                    AttributeDescription("text", .string)
                    AttributeDescription("length", .integer16)
                    RelationshipDescription("wordCategory", to: "WordCategory", inverse: "words")
                    if indexed { FetchIndex("byText", ["text"]) }
                }
            }
        } catch {
            fatalError("the benchmark model is invalid: \(error)")
        }
    }

    /// `count` deterministic pseudo-random lower-case words of 3 to 12 letters.
    static func words(_ count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
        return (0..<count).map { _ in
            let length = 3 + Int(next() % 10)
            var s = String.UnicodeScalarView()
            for _ in 0..<length { s.append(letters[Int(next() % 26)]) }
            return String(s)
        }
    }

    /// Inserts the 26 categories and one `Word` per word, linked to the category of its
    /// first letter (unsaved).
    static func insertObjects(_ words: [String], into context: ManagedObjectContext) throws {
        var categories: [Character: ManagedObject] = [:]
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            let category = try context.insert("WordCategory")
            try category.setValue(.string(String(letter)), forKey: "firstLetter")
            categories[letter] = category
        }
        for word in words {
            let object = try context.insert("Word")
            try object.setValue(.string(word), forKey: "text")
            try object.setValue(.integer(Int64(word.count)), forKey: "length")
            if let first = word.first, let category = categories[first] {
                try object.setObject(category, forKey: "wordCategory")
            }
        }
    }

    /// Inserts the words through a context and saves once. The context is returned so that
    /// tearing the object graph down is not counted in the insert-and-save time.
    @discardableResult
    static func insertThroughContext(_ words: [String], path: String, phases: Bool = false) throws -> ManagedObjectContext {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        try insertObjects(words, into: context)
        let inserted = clock.now
        try context.save()
        if phases { print("    phases: create+insert \(inserted - start), save \(clock.now - inserted)") }
        return context
    }

    /// The same rows through the raw SQLite C API in one transaction, into a store
    /// created (empty) by GraphStore so both write the same schema.
    static func insertRaw(_ words: [String], path: String, model: ManagedObjectModel = model) throws {
        _ = try PersistentStore.create(at: path, model: model)
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        var category: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO ZWORDCATEGORY (Z_PK, Z_ENT, Z_OPT, ZFIRSTLETTER) VALUES (?, 2, 1, ?)", -1, &category, nil)
        var categoryKeys: [Character: Int64] = [:]
        for (i, letter) in "abcdefghijklmnopqrstuvwxyz".enumerated() {
            sqlite3_bind_int64(category, 1, Int64(i + 1))
            sqlite3_bind_text(category, 2, String(letter), -1, bench_sqlite_transient())
            sqlite3_step(category)
            sqlite3_reset(category)
            categoryKeys[letter] = Int64(i + 1)
        }
        sqlite3_finalize(category)
        var insert: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO ZWORD (Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZWORDCATEGORY, ZTEXT) VALUES (?, 1, 1, ?, ?, ?)", -1, &insert, nil)
        for (i, word) in words.enumerated() {
            sqlite3_bind_int64(insert, 1, Int64(i + 1))
            sqlite3_bind_int64(insert, 2, Int64(word.count))
            sqlite3_bind_int64(insert, 3, word.first.flatMap { categoryKeys[$0] } ?? 0)
            sqlite3_bind_text(insert, 4, word, -1, bench_sqlite_transient())
            sqlite3_step(insert)
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        sqlite3_exec(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(words.count) WHERE Z_NAME = 'Word'", nil, nil, nil)
        sqlite3_exec(db, "UPDATE Z_PRIMARYKEY SET Z_MAX = 26 WHERE Z_NAME = 'WordCategory'", nil, nil, nil)
        guard sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK else { throw BenchmarkError("commit failed") }
    }

    static func run() throws {
        let words = words(Int(170_000 * benchmarkScale))
        print("WordList: insert 170,000 words (text, length, category) and save")
        let contextPath = scratchPath("wordlist-context.sqlite")
        let rawPath = scratchPath("wordlist-raw.sqlite")
        var kept: [ManagedObjectContext] = []
        let ours = try measure("GraphStore context insert + save", setUp: { kept.removeAll(); removeStore(contextPath) }) {
            kept.append(try insertThroughContext(words, path: contextPath, phases: ProcessInfo.processInfo.environment["GRAPHSTORE_BENCH_PHASES"] != nil))
        }
        kept.removeAll()
        let raw = try measure("raw SQLite C API, one transaction", setUp: { removeStore(rawPath) }) {
            try insertRaw(words, path: rawPath)
        }
        report("WordList insert", ours: ours, raw: raw, target: 1.5)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
