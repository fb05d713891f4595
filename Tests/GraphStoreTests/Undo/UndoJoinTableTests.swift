import Foundation
import Testing
@testable import GraphStore

/// Many-to-many relationships live in join tables: undo across saves must leave them
/// exactly as the object graph says.
@Suite struct UndoJoinTableTests {
    private func joinRows(_ path: String) throws -> [[String]] {
        let table = try UndoFixtures.rows(path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        guard let name = table.first?.first else { return [] }
        return try UndoFixtures.rows(path, "SELECT * FROM \(name) ORDER BY 1, 2")
    }

    @Test func undoingASavedManyToManyLinkAndBringingBackASavedDelete() throws {
        let path = try Fixtures.newStorePath()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: Fixtures.layoutModel()))
        let undo = ContextUndoManager()
        context.undoManager = undo
        let author = try context.insert("Author")
        let first = try context.insert("Book")
        let second = try context.insert("Book")
        try context.save()
        undo.endEvent()
        try author.add(first, toKey: "books")
        try author.add(second, toKey: "books")
        undo.endEvent()
        try context.save()
        #expect(try joinRows(path).count == 2)
        try undo.undo()
        try context.save()
        #expect(try joinRows(path).isEmpty)
        try undo.redo()
        try context.save()
        #expect(try joinRows(path).count == 2)
        // Delete the author (its links go), save, then bring it back: it is inserted
        // again under a new key, and its links are written again.
        try context.delete(author)
        undo.endEvent()
        try context.save()
        #expect(try joinRows(path).isEmpty)
        #expect(try first.objects(forKey: "authors").isEmpty)
        try undo.undo()
        #expect(author.isInserted)
        try context.save()
        let key = try #require(author.objectID.primaryKey)
        #expect(key != 1)
        #expect(try joinRows(path).count == 2)
        #expect(try joinRows(path).allSatisfy { $0.contains(String(key)) })
        let fresh = ManagedObjectContext(store: try PersistentStore(path: path, model: Fixtures.layoutModel(), readOnly: true))
        let stored = try fresh.existingObject(entity: "Author", primaryKey: key)
        #expect(try stored.objects(forKey: "books").count == 2)
        #expect(try fresh.existingObject(entity: "Book", primaryKey: first.objectID.primaryKey ?? 0).objects(forKey: "authors").map(\.objectID) == [stored.objectID])
    }
}
