import Foundation
import GraphStore

/// Undo of one large group: the WordList inserts (26 categories, 170,000 words with text,
/// length and category) registered as one undo group, then taken back with one undo.
/// Target: the undo takes no more than twice the insert.
enum UndoBenchmark {
    static func run() throws {
        let words = WordList.words(Int(170_000 * benchmarkScale))
        print("Undo: insert 170,000 words in one undo group, then undo the group")
        let path = scratchPath("undo.sqlite")
        var kept: [ManagedObjectContext] = []
        var context: ManagedObjectContext?
        let plain = try measure("insert, no undo manager", setUp: { kept.removeAll(); removeStore(path) }) {
            kept.append(try insertAll(words, path: path, undo: false))
        }
        let insert = try measure("insert, registering undo", setUp: { kept.removeAll(); removeStore(path) }) {
            kept.append(try insertAll(words, path: path, undo: true))
        }
        let undo = try measure(
            "undo of the group",
            setUp: {
                kept.removeAll()
                removeStore(path)
                context = try insertAll(words, path: path, undo: true)
            }
        ) {
            guard let manager = context?.undoManager else { throw BenchmarkError("no undo manager") }
            try manager.undo()
            guard context?.insertedObjects.isEmpty == true, manager.canRedo else { throw BenchmarkError("undo left objects behind") }
            if let context { kept.append(context) }
        }
        kept.removeAll()
        let wall = undo.wall / insert.wall
        let cpu = undo.cpu / insert.cpu
        print(String(format: "  registering undo costs %.2f× the plain insert (wall)", insert.wall / plain.wall))
        print(String(format: "  undo: %.2f× the insert wall, %.2f× cpu (target ≤ 2.0×) %@", wall, cpu, wall <= 2 ? "MET" : "NOT MET"))
    }

    /// Inserts the WordList objects in one event, optionally with an undo manager.
    static func insertAll(_ words: [String], path: String, undo: Bool) throws -> ManagedObjectContext {
        let store = try PersistentStore.create(at: path, model: WordList.model)
        let context = ManagedObjectContext(store: store)
        if undo { context.undoManager = ContextUndoManager() }
        try WordList.insertObjects(words, into: context)
        context.undoManager?.setActionName("insert words")
        context.undoManager?.endEvent()
        return context
    }
}
