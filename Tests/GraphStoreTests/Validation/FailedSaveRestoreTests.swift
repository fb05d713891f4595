import Foundation
import Testing
@testable import GraphStore

/// A note whose `willSave` hook changes things before the save writes: a recorded change
/// (its revision), a primitive one (its state) and, for a new note, an inserted log entry
/// linked to it. A failed save must take all of that back.
final class StampedNote: ManagedObject {
    override func willSave() {
        guard !isDeleted, let context = managedObjectContext else { return }
        try? set("revision", (try? get("revision", as: Int64.self)).flatMap { $0 }.map { $0 + 1 } ?? 1)
        try? setPrimitive("state", "saving")
        if isInserted, let log = try? context.insert("Log") {
            try? log.set("text", "new note")
            try? log.setObject(self, forKey: "note")
        }
    }
}

/// After a failed save of each kind, the context shows the store plus the user's pending
/// changes exactly as before the save: temporary IDs stay temporary, versions and `Z_MAX`
/// are unchanged, inserted objects are still inserted, the hooks' changes are gone and the
/// undo stacks are as they were.
@Suite struct FailedSaveRestoreTests {
    enum Failure: String, CaseIterable {
        case validation, conflict, trigger, uniqueIndex, fullDisk
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("title", .string).length(1...40)
                AttributeDescription("body", .string)
                AttributeDescription("revision", .integer64)
                AttributeDescription("state", .string)
                RelationshipDescription("logs", to: "Log", inverse: "note", toMany: true, ordered: true)
                RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true)
            }
            EntityDescription("Log") {
                AttributeDescription("text", .string)
                RelationshipDescription("note", to: "Note", inverse: "logs")
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true)
            }
        }
    }

    /// Everything a context shows: each object it knows (by identity) with its ID, version,
    /// state, values, relationships and committed snapshot; the pending lists; the next
    /// temporary ID; `Z_MAX` as the store knows it; the undo stacks.
    static func state(_ context: ManagedObjectContext) -> [String] {
        func ids(_ refs: some Sequence<ObjectRef>) -> String { refs.map(\.object.objectID.description).joined(separator: ",") }
        func describe(_ object: ManagedObject) -> String {
            var text = "\(object.objectID) #\(ObjectIdentifier(object).hashValue) v\(object.version) \(object.lifecycle)"
            text += " fault=\(object.isFault) key=\(object.pendingKey.map(String.init) ?? "-") values=\(Array(object.values))"
            text += " toOne=\(object.toOne.map { $0.destinationID?.description ?? "nil" })"
            text += " toMany=\(object.mapping.toManyIndices.map { object.toMany[$0].map { ids($0.settledMembers) } ?? "fault" })"
            if let snapshot = object.snapshot {
                text += " snapshot=\(Array(snapshot.values)) \(snapshot.toMany.keys.sorted().map { snapshot.toMany[$0]!.map { ids($0.settledMembers) } ?? "nil" })"
            }
            return text + " inContext=\(object.managedObjectContext === context)"
        }
        var lines = ["records \(context.store.primaryKeyEntries.keys.sorted().map { "\($0):\(context.store.primaryKeyEntries[$0]!.max)" })"]
        lines += context.registeredObjects.sorted { $0.objectID.description < $1.objectID.description }.map(describe)
        lines += ["inserted"] + context.insertedObjects.map(describe)
        lines += ["updated"] + context.updatedObjects.map(describe)
        lines += ["deleted"] + context.deletedObjects.map(describe)
        lines.append("next temporary ID \(context.nextTemporaryID)")
        if let undo = context.undoManager {
            lines.append("undo \(undo.undoGroupCount) redo \(undo.redoGroupCount) open \(undo.openChangeCount) level \(undo.groupingLevel) last \(undo.lastGroupNumber)")
        }
        return lines
    }

    @Test(arguments: Failure.allCases) func aFailedSaveLeavesTheContextAsItWas(_ failure: Failure) throws {
        let path = try Fixtures.newStorePath()
        let model = try Self.model()
        let context = ManagedObjectContext(store: try PersistentStore.create(at: path, model: model))
        context.register(StampedNote.self, forEntity: "Note")
        let kept = try context.insert("Note")
        try kept.set("title", "kept")
        let tag = try context.insert("Tag")
        try tag.set("name", "work")
        try kept.add(tag, toKey: "tags")
        try context.save()
        context.undoManager = ContextUndoManager()

        // The pending changes: an update, a delete, inserts and relationships.
        let doomed = try context.insert("Note")
        try doomed.set("title", "doomed")
        try context.save()
        context.undoManager?.endEvent()
        try kept.set("body", "changed")
        try context.delete(doomed)
        let fresh = try context.insert("Note")
        try fresh.set("title", "fresh")
        try fresh.add(tag, toKey: "tags")
        let other = try context.insert("Tag")
        try other.set("name", "home")
        try kept.add(other, toKey: "tags")
        context.undoManager?.endEvent()
        try kept.set("body", "changed again")   // left in the open group

        let raw = try Connection(path: path, mode: .readWrite)
        switch failure {
        case .validation:
            try fresh.set("title", "")
        case .conflict:
            let writer = ManagedObjectContext(store: try PersistentStore(path: path, model: model, readOnly: false))
            try writer.existingObject(entity: "Note", primaryKey: 1).set("body", "theirs")
            try writer.save()
        case .trigger:
            try raw.execute("CREATE TRIGGER refuse BEFORE INSERT ON ZLOG BEGIN SELECT RAISE(ABORT, 'no logs'); END")
        case .uniqueIndex:
            try raw.execute("CREATE UNIQUE INDEX one_name ON ZTAG (ZNAME)")
            try other.set("name", "work")
        case .fullDisk:
            let pages = try #require(context.store.connection.scalar("PRAGMA page_count")?.integer)
            try context.store.connection.execute("PRAGMA max_page_count = \(pages)")
            try fresh.set("body", String(repeating: "a long body ", count: 2000))
        }
        let files = Fixtures.fingerprint(path).filter { $0.key != "-shm" }
        let keys = try ValidationFixtures.rows(path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME")
        let logs = try context.fetch("Log").count
        let before = Self.state(context)

        #expect(throws: (any Error).self) { try context.save() }

        #expect(Self.state(context) == before)
        #expect(Fixtures.fingerprint(path).filter { $0.key != "-shm" } == files)
        #expect(try ValidationFixtures.rows(path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME") == keys)
        #expect(context.store.connection.isInTransaction == false)
        // The hooks' changes are gone: no new log entry, no new revision or state.
        #expect(fresh.objectID.isTemporary && other.objectID.isTemporary)
        #expect(try fresh.get("revision", as: Int64.self) == nil)
        #expect(try fresh.get("state", as: String.self) == nil)
        #expect(try kept.get("revision", as: Int64.self) == 1)
        #expect(try context.fetch("Log").count == logs)

        // What the user sees of stored objects is the store plus the pending changes.
        let reader = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
        let storedKept = try reader.existingObject(entity: "Note", primaryKey: 1)
        #expect(try storedKept.get("body", as: String.self) == (failure == .conflict ? "theirs" : nil))
        #expect(try kept.get("body", as: String.self) == "changed again")

        // The undo stacks still describe the pending changes: the open group, then the event.
        try context.undoManager?.undo()
        #expect(try kept.get("body", as: String.self) == "changed")
        try context.undoManager?.undo()
        #expect(try kept.get("body", as: String.self) == nil)
        #expect(!doomed.isDeleted)
        #expect(fresh.managedObjectContext == nil)
    }
}
