import Foundation
import GraphStore

/// Where the WordList insert spends its time, step by step (`phases` benchmark).
enum Phases {
    static func run() throws {
        let words = WordList.words(Int(170_000 * benchmarkScale))
        let clock = ContinuousClock()
        for step in 0..<4 {
            let path = scratchPath("phases.sqlite")
            removeStore(path)
            let store = try PersistentStore.create(at: path, model: WordList.model)
            let context = ManagedObjectContext(store: store)
            let category = try context.insert("WordCategory")
            let start = clock.now
            for word in words {
                let object = try context.insert("Word")
                if step >= 1 { try object.setValue(.string(word), forKey: "text") }
                if step >= 2 { try object.setValue(.integer(Int64(word.count)), forKey: "length") }
                if step >= 3 { try object.setObject(category, forKey: "wordCategory") }
            }
            let inserted = clock.now
            try context.save()
            let saved = clock.now
            print("  step \(step): insert \(inserted - start), save \(saved - inserted)")
        }
    }
}
