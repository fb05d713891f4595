import CSQLiteRaw
import Foundation
import GraphStore

/// Fetching from a 1,000,000-word store (WordList model, `byText` fetch index):
///
/// 1. `text BEGINSWITH "ab" AND length > 5` through a fetch request (objects made in a fresh
///    context) vs the hand-written range query through the C API reading the same columns
///    into Swift values. Target ≤ 1.3×.
/// 2. Every word made into an object with three values touched (text, length, the category's
///    ID) through `enumerate` vs a C loop reading the same columns. Target ≤ 1.5×, peak
///    memory within 1.3×.
///
/// Each side of each runs in a child process of its own, the sides alternating (see
/// ``AlternatingRuns``), so that its heap and peak resident size (`VmHWM`) are its own.
enum FetchBenchmark {
    static let wordCount = Int(1_000_000 * benchmarkScale)

    static func run() throws {
        let path = try prepareStore()
        print("Fetch: \(wordCount) words, fetch index byText on text")
        try prefixFetch(path)
        try materializeAll(path)
    }

    /// Builds the store once (raw inserts into a schema GraphStore created) and reuses it.
    static func prepareStore() throws -> String {
        let path = scratchPath("wordlist-\(wordCount).sqlite")
        if let store = try? PersistentStore(path: path, model: WordList.indexedModel),
            (try? store.count(of: store.mapping(for: "Word"))) == wordCount
        {
            return path
        }
        removeStore(path)
        print("  building \(path) …")
        try WordList.insertRaw(WordList.words(wordCount), path: path, model: WordList.indexedModel)
        let store = try PersistentStore(path: path, model: WordList.indexedModel, readOnly: false)
        try store.checkpoint()
        return path
    }

    // MARK: - BEGINSWITH + length

    static let predicateFormat = #"text BEGINSWITH "ab" AND length > 5"#
    static let rawPrefixSQL =
        "SELECT Z_PK, Z_ENT, Z_OPT, ZLENGTH, ZTEXT, ZWORDCATEGORY FROM ZWORD WHERE ZTEXT >= ? AND ZTEXT < ? AND ZLENGTH > ?"

    /// Both sides ×200 in child processes of their own, alternating (see ``ChildRun``).
    static func prefixFetch(_ path: String) throws {
        let store = try PersistentStore(path: path, model: WordList.indexedModel)
        let request = FetchRequest(entityName: "Word", predicate: try ObjectPredicate(format: predicateFormat))
        print("  SQL: \(try store.sql(for: request))")
        print("  plan: \(try store.queryPlan(for: request).steps.map(\.detail).joined(separator: "; "))")
        let runs = try AlternatingRuns("fetch", sides: ["prefix-ours", "prefix-raw"], arguments: [path])
        let (ours, raw) = (runs.timing("prefix-ours"), runs.timing("prefix-raw"))
        for (label, timing) in [("fetch request, objects (×200)", ours), ("raw C API, same columns (×200)", raw)] {
            print(String(format: "  %-44@ %8.3f s wall  %8.3f s cpu  (median of %d)", label as NSString, timing.wall, timing.cpu, benchmarkRuns))
        }
        print("  \(Int(runs.median("prefix-ours", { Double($0.checksum) }))) words per fetch")
        report("BEGINSWITH + length fetch", ours: ours, raw: raw, target: 1.3)
        print("  cpu ratio per run: \(runs.cpuRatios("prefix-ours", to: "prefix-raw").map { String(format: "%.2f×", $0) }.joined(separator: " "))")
    }

    /// The hand-written query, prepared once per repetition (as the fetch prepares or reuses
    /// its statement), every column read into a Swift value.
    static func rawPrefix(_ path: String, repetitions: Int) throws -> Int {
        try withRawStatement(path, rawPrefixSQL) { statement in
            var rows: [RawWord] = []
            for _ in 0..<repetitions {
                rows = []
                sqlite3_bind_text(statement, 1, "ab", -1, bench_sqlite_transient())
                sqlite3_bind_text(statement, 2, "ac", -1, bench_sqlite_transient())
                sqlite3_bind_int64(statement, 3, 5)
                while sqlite3_step(statement) == SQLITE_ROW { rows.append(RawWord(statement)) }
                sqlite3_reset(statement)
            }
            return rows.count
        }
    }

    // MARK: - Every word

    /// Runs both sides in child processes, several times, alternating.
    ///
    /// A third side, ``ObjectFloor``, makes a minimal hand-written object per row: how far
    /// from the raw loop any object-per-row design starts.
    static func materializeAll(_ path: String) throws {
        let runs = try AlternatingRuns("fetch", sides: ["ours", "raw", "floor", "dictionaries", "rows"], arguments: [path])
        let (ours, raw, floor) = (runs.timing("ours"), runs.timing("raw"), runs.timing("floor"))
        let (oursPeak, rawPeak, floorPeak) = (runs.median("ours", \.peakMB), runs.median("raw", \.peakMB), runs.median("floor", \.peakMB))
        for (label, timing, peak) in [
            ("enumerate 1M objects, 3 values touched", ours, oursPeak), ("raw C loop, same columns", raw, rawPeak),
            ("floor: minimal object per row (by hand)", floor, floorPeak),
        ] {
            print(String(format: "  %-44@ %8.3f s wall  %8.3f s cpu  peak %6.1f MB  (median of %d)", label as NSString, timing.wall, timing.cpu, peak, benchmarkRuns))
        }
        // Issue 33's target (issue 4 asked 1.5×, below the hand-written floor of about 1.9×).
        report("materialize 1M objects", ours: ours, raw: raw, target: 2.0)
        print("  cpu ratio per run: \(runs.cpuRatios("ours", to: "raw").map { String(format: "%.2f×", $0) }.joined(separator: " "))")
        print(String(format: "  floor: %.2f× raw SQLite cpu; GraphStore %.2f× the floor", floor.cpu / raw.cpu, ours.cpu / floor.cpu))
        let ratio = oursPeak / rawPeak
        print(String(format: "  peak memory: %.2f× raw SQLite (target ≤ 1.3×) %@", ratio, ratio <= 1.3 ? "MET" : "NOT MET"))
    }

    /// One side in a child process (`child fetch SIDE PATH`). The `prefix-` sides run the
    /// BEGINSWITH fetch 200 times (for profiling it on its own).
    static func childMain(side: String, path: String) throws {
        try ChildRun.report {
            switch side {
            case "raw": try rawAll(path)
            case "prefix-raw": try rawPrefix(path, repetitions: 200)
            case "prefix-ours": try oursPrefix(path, repetitions: 200)
            case "floor": try ObjectFloor.run(path)
            case "dictionaries": try dictionariesAll(path)
            case "rows": try rowsAll(path)
            default: try oursAll(path)
            }
        }
    }

    static func oursPrefix(_ path: String, repetitions: Int) throws -> Int {
        let store = try PersistentStore(path: path, model: WordList.indexedModel)
        let request = FetchRequest(entityName: "Word", predicate: try ObjectPredicate(format: predicateFormat))
        var found = 0
        for _ in 0..<repetitions { found = try ManagedObjectContext(store: store).fetch(request).count }
        return found
    }

    static func oursAll(_ path: String) throws -> Int {
        let store = try PersistentStore(path: path, model: WordList.indexedModel)
        let context = ManagedObjectContext(store: store)
        var checksum = 0
        try context.enumerate(FetchRequest(entityName: "Word")) { word in
            let text = try word.value(forKey: "text")?.stringValue ?? ""
            let length = try word.value(forKey: "length")?.integerValue ?? 0
            let category = try word.objectID(forKey: "wordCategory")?.primaryKey ?? 0
            checksum &+= text.utf8.count &+ Int(length) &+ Int(category)
        }
        return checksum
    }

    /// The same three values of every word through a dictionary fetch (no object made), read
    /// by key as an app reads Core Data's dictionary results.
    static func dictionariesAll(_ path: String) throws -> Int {
        let store = try PersistentStore(path: path, model: WordList.indexedModel)
        var request = FetchRequest(entityName: "Word")
        request.resultType = .dictionary
        request.propertiesToFetch = ["text", "length", "wordCategory"]
        var checksum = 0
        for word in try ManagedObjectContext(store: store).fetchDictionaries(request) {
            let text = word["text"]?.attributeValue?.stringValue ?? ""
            let length = word["length"]?.attributeValue?.integerValue ?? 0
            let category = word["wordCategory"]?.objectID?.primaryKey ?? 0
            checksum &+= text.utf8.count &+ Int(length) &+ Int(category)
        }
        return checksum
    }

    /// The same three values of every word read in place from the rows
    /// (`enumerateStoredRows`: no object, no dictionary).
    static func rowsAll(_ path: String) throws -> Int {
        let store = try PersistentStore(path: path, model: WordList.indexedModel)
        let mapping = try store.mapping(for: "Word")
        guard let text = mapping.attributeIndex(of: "text"), let length = mapping.attributeIndex(of: "length"),
            let category = mapping.relationshipIndex(of: "wordCategory")
        else { throw BenchmarkError("Word lacks text, length or wordCategory") }
        var checksum = 0
        let read = try ManagedObjectContext(store: store).enumerateStoredRows(FetchRequest(entityName: "Word")) { row in
            let word = try row.value(at: text)?.stringValue ?? ""
            let letters = try row.value(at: length)?.integerValue ?? 0
            let group = try row.destinationID(at: category)?.primaryKey ?? 0
            checksum &+= word.utf8.count &+ Int(letters) &+ Int(group)
        }
        guard read else { throw BenchmarkError("enumerateStoredRows declined a fresh context's fetch") }
        return checksum
    }

    static func rawAll(_ path: String) throws -> Int {
        try withRawStatement(path, "SELECT Z_PK, ZTEXT, ZLENGTH, ZWORDCATEGORY FROM ZWORD") { statement in
            var checksum = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                let text = String(cString: sqlite3_column_text(statement, 1))
                let length = sqlite3_column_int64(statement, 2)
                let category = sqlite3_column_int64(statement, 3)
                checksum &+= text.utf8.count &+ Int(length) &+ Int(category)
            }
            return checksum
        }
    }

    /// Opens the store read-only through the C API (default flags, as an app would) and
    /// prepares `sql` for `body`.
    static func withRawStatement<T>(_ path: String, _ sql: String, _ body: (OpaquePointer?) throws -> T) throws -> T {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw BenchmarkError("cannot open \(path)") }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw BenchmarkError("cannot prepare \(sql)") }
        defer { sqlite3_finalize(statement) }
        return try body(statement)
    }
}

/// A row of the hand-written query, as an app would keep it.
struct RawWord {
    var key: Int64
    var entity: Int64
    var version: Int64
    var length: Int64
    var text: String
    var category: Int64

    init(_ statement: OpaquePointer?) {
        key = sqlite3_column_int64(statement, 0)
        entity = sqlite3_column_int64(statement, 1)
        version = sqlite3_column_int64(statement, 2)
        length = sqlite3_column_int64(statement, 3)
        text = String(cString: sqlite3_column_text(statement, 4))
        category = sqlite3_column_int64(statement, 5)
    }
}
