import Foundation
import GraphStore

/// The WordList classes, as `graphstore codegen` writes them (with scalar length and a
/// non-optional text, so `#Predicate` needs no nil case).
final class Word: ManagedObject, EntityObject {
    class var entityName: String { "Word" }
    class var relatedClasses: [any EntityObject.Type] { [WordCategory.self] }
    private static let propertyNames: PropertyNames<Word> = [\.text: "text", \.length: "length", \.wordCategory: "wordCategory"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    var text: String {
        get { attributeProperty("text") }
        set { setAttributeProperty(newValue, "text") }
    }
    var length: Int16 {
        get { attributeProperty("length") }
        set { setAttributeProperty(newValue, "length") }
    }
    var wordCategory: WordCategory? {
        get { relationshipProperty("wordCategory") }
        set { setRelationshipProperty(newValue, "wordCategory") }
    }
}

/// The same class with property wrappers, as a hand-written class may be.
final class WrappedWord: ManagedObject, EntityObject {
    class var entityName: String { "Word" }
    class func propertyName(for keyPath: AnyKeyPath) -> String? { nil }

    @Attribute("text") var text: String
    @Attribute("length") var length: Int16
    @Relationship("wordCategory") var wordCategory: WordCategory?
}

final class WordCategory: ManagedObject, EntityObject {
    class var entityName: String { "WordCategory" }
    class var relatedClasses: [any EntityObject.Type] { [Word.self] }
    private static let propertyNames: PropertyNames<WordCategory> = [\.firstLetter: "firstLetter"]
    class func propertyName(for keyPath: AnyKeyPath) -> String? { propertyNames.name(for: keyPath) }

    var firstLetter: String? {
        get { attributeProperty("firstLetter") }
        set { setAttributeProperty(newValue, "firstLetter") }
    }
}

/// Typed properties against `get`/`set` (the 170,000 WordList words made, written and read
/// three times, not saved), and a `#Predicate` fetch against the same format-string fetch
/// (the request made once, then fetched 20 times from the saved WordList store). Each side
/// in a child process, alternating (see ``AlternatingRuns``).
enum TypedBenchmark {
    static let fetchRounds = 20

    static func run() throws {
        print("Typed properties: make 170,000 words, write text/length/category, read them back 3 times (no save)")
        let access = try AlternatingRuns("typed-access", sides: ["typed", "keyed", "wrapped"])
        print(String(format: "  typed %.3f s cpu, get/set %.3f s cpu: %.3f× cpu (target ≤ 1.05×); rounds: %@", access.timing("typed").cpu,
            access.timing("keyed").cpu, access.timing("typed").cpu / access.timing("keyed").cpu,
            access.cpuRatios("typed", to: "keyed").map { String(format: "%.3f×", $0) }.joined(separator: " ")))
        print(String(format: "  property wrappers (@Attribute, hand-written classes) %.3f s cpu: %.3f× cpu", access.timing("wrapped").cpu,
            access.timing("wrapped").cpu / access.timing("keyed").cpu))
        let path = scratchPath("typed-fetch.sqlite")
        removeStore(path)
        try WordList.insertRaw(WordList.words(Int(170_000 * benchmarkScale)), path: path)
        print("#Predicate fetch vs format string: length > 10 AND text BEGINSWITH \"ab\", \(fetchRounds) fetches of one request")
        let fetch = try AlternatingRuns("typed-fetch", sides: ["predicate", "format"], arguments: [path])
        print(String(format: "  #Predicate %.3f s cpu, format %.3f s cpu: %.3f× cpu (target ≤ 1.02×); rounds: %@", fetch.timing("predicate").cpu,
            fetch.timing("format").cpu, fetch.timing("predicate").cpu / fetch.timing("format").cpu,
            fetch.cpuRatios("predicate", to: "format").map { String(format: "%.3f×", $0) }.joined(separator: " ")))
        let making = try AlternatingRuns("typed-fetch", sides: ["translate", "parse"], arguments: [path])
        print(String(format: "  making the request 100,000 times: #Predicate translated %.3f s cpu, format string parsed %.3f s cpu: %.2f×",
            making.timing("translate").cpu, making.timing("parse").cpu, making.timing("translate").cpu / making.timing("parse").cpu))
    }

    /// `child typed-access typed|keyed`.
    static func accessChild(side: String) throws {
        let words = WordList.words(Int(170_000 * benchmarkScale))
        let path = scratchPath("typed-access-\(side).sqlite")
        removeStore(path)
        let store = try PersistentStore.create(at: path, model: WordList.model)
        let context = ManagedObjectContext(store: store)
        try ChildRun.report {
            switch side {
            case "typed": typedWork(words, context, Word.self)
            case "wrapped": wrappedWork(words, context)
            default: try keyedWork(words, context)
            }
        }
    }

    static func typedWork(_ words: [String], _ context: ManagedObjectContext, _: Word.Type) -> Int {
        var categories: [Character: WordCategory] = [:]
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            let category = WordCategory(context: context)
            category.firstLetter = String(letter)
            categories[letter] = category
        }
        var made: [Word] = []
        made.reserveCapacity(words.count)
        for text in words {
            let word = Word(context: context)
            word.text = text
            word.length = Int16(text.count)
            word.wordCategory = text.first.flatMap { categories[$0] }
            made.append(word)
        }
        var sum = 0
        for _ in 0..<3 {
            for word in made { sum &+= Int(word.length) &+ word.text.utf8.count &+ (word.wordCategory == nil ? 0 : 1) }
        }
        return sum
    }

    /// ``typedWork`` with property wrappers.
    static func wrappedWork(_ words: [String], _ context: ManagedObjectContext) -> Int {
        var categories: [Character: WordCategory] = [:]
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            let category = WordCategory(context: context)
            category.firstLetter = String(letter)
            categories[letter] = category
        }
        context.register(WrappedWord.self, forEntity: "Word")
        var made: [WrappedWord] = []
        made.reserveCapacity(words.count)
        for text in words {
            let word = WrappedWord(context: context)
            word.text = text
            word.length = Int16(text.count)
            word.wordCategory = text.first.flatMap { categories[$0] }
            made.append(word)
        }
        var sum = 0
        for _ in 0..<3 {
            for word in made { sum &+= Int(word.length) &+ word.text.utf8.count &+ (word.wordCategory == nil ? 0 : 1) }
        }
        return sum
    }

    static func keyedWork(_ words: [String], _ context: ManagedObjectContext) throws -> Int {
        var categories: [Character: ManagedObject] = [:]
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            let category = try context.insert("WordCategory")
            try category.set("firstLetter", String(letter))
            categories[letter] = category
        }
        var made: [ManagedObject] = []
        made.reserveCapacity(words.count)
        for text in words {
            let word = try context.insert("Word")
            try word.set("text", text)
            try word.set("length", Int16(text.count))
            try word.setObject(text.first.flatMap { categories[$0] }, forKey: "wordCategory")
            made.append(word)
        }
        var sum = 0
        for _ in 0..<3 {
            for word in made {
                sum &+= Int(try word.get("length", as: Int16.self) ?? 0) &+ (try word.get("text", as: String.self) ?? "").utf8.count
                    &+ (try word.object(forKey: "wordCategory") == nil ? 0 : 1)
            }
        }
        return sum
    }

    /// `child typed-fetch translate|parse PATH`: making the request alone, 100,000 times.
    static func requestChild(side: String) throws {
        try ChildRun.report {
            var sum = 0
            for _ in 0..<100_000 {
                if side == "translate" {
                    sum &+= try FetchRequest<Word>(predicate: #Predicate { $0.length > 10 && $0.text.starts(with: "ab") }).sortKeys.count + 1
                } else {
                    sum &+= try FetchRequest(entityName: "Word", format: "length > 10 AND text BEGINSWITH 'ab'").sortKeys.count + 1
                }
            }
            return sum
        }
    }

    /// `child typed-fetch predicate|format PATH`.
    static func fetchChild(side: String, path: String) throws {
        if side == "translate" || side == "parse" { return try requestChild(side: side) }
        let context = ManagedObjectContext(store: try PersistentStore(path: path, model: WordList.model))
        context.register(Word.self)
        try ChildRun.report {
            var sum = 0
            if side == "predicate" {
                let request = try FetchRequest<Word>(predicate: #Predicate { $0.length > 10 && $0.text.starts(with: "ab") })
                for _ in 0..<fetchRounds { sum &+= try context.fetch(request).count }
            } else {
                let request = try FetchRequest(entityName: "Word", format: "length > 10 AND text BEGINSWITH 'ab'")
                for _ in 0..<fetchRounds { sum &+= try context.fetch(request).count }
            }
            return sum
        }
    }
}
