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
    static func insertThroughContext(_ words: [String], path: String) throws -> ManagedObjectContext {
        let store = try PersistentStore.create(at: path, model: model)
        let context = ManagedObjectContext(store: store)
        try insertObjects(words, into: context)
        try context.save()
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

    /// Each side in a child process of its own, alternating (see ``ChildRun``).
    static func run() throws {
        print("WordList: insert 170,000 words (text, length, category) and save")
        let runs = try AlternatingRuns("wordlist", sides: ["ours", "raw"])
        let (ours, raw) = (runs.timing("ours"), runs.timing("raw"))
        for (label, timing, side) in [("GraphStore context insert + save", ours, "ours"), ("raw SQLite C API, one transaction", raw, "raw")] {
            let peak = runs.median(side, \.peakMB)
            print(String(format: "  %-44@ %8.3f s wall  %8.3f s cpu  peak %6.1f MB  (median of %d)", label as NSString, timing.wall, timing.cpu, peak, benchmarkRuns))
        }
        report("WordList insert", ours: ours, raw: raw, target: 1.5)
        print("  cpu ratio per run: \(runs.cpuRatios("ours", to: "raw").map { String(format: "%.2f×", $0) }.joined(separator: " "))")
    }

    /// One side in a child process (`child wordlist ours|raw`): the words are made before
    /// the clock starts; the checksum (summed lengths and keys in the store) after it stops.
    static func childMain(side: String) throws {
        let words = words(Int(170_000 * benchmarkScale))
        let path = scratchPath("wordlist-\(side).sqlite")
        removeStore(path)
        var kept: ManagedObjectContext?
        try ChildRun.report {
            if side == "raw" { try insertRaw(words, path: path) } else { kept = try insertThroughContext(words, path: path) }
            return nil
        } checksum: {
            let store = try PersistentStore(path: path, model: model)
            let context = ManagedObjectContext(store: store)
            var sum = 0
            try context.enumerate(FetchRequest(entityName: "Word")) { word in
                sum &+= Int(try word.value(forKey: "length")?.integerValue ?? 0) &+ Int(word.objectID.primaryKey ?? 0)
            }
            return sum
        }
        _ = kept
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
