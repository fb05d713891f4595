// Users and notes, with validation written in code as Core Data apps write it (see
// User.swift): a first name that must not be blank, an e-mail that must look like one,
// and users who still have notes refused on delete.
//
//     swift run users-example /tmp/users.sqlite
//     graphstore --write --model examples/Users/Users.xcdatamodeld /tmp/users.sqlite < examples/Users/users.graphstore
import Foundation
import GraphStore

let path = CommandLine.arguments.dropFirst().first ?? "users.sqlite"
let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

/// Saves, printing each failure (code and message) instead of stopping.
func trySave(_ context: ManagedObjectContext, _ what: String) throws -> Bool {
    do {
        try context.save()
        print("\(what): saved")
        return true
    } catch let failure as any ValidationErrorReporting {
        print("\(what): the save failed, nothing was written")
        for error in failure.validationErrors { print("  \(error.code) \(error)") }
        return false
    }
}

do {
    let model = try ModelFile.load(path: folder.appendingPathComponent("Users.xcdatamodeld").path)
    let store = try PersistentStore.create(at: path, model: model)
    let context = ManagedObjectContext(store: store)
    context.register(User.self, forEntity: "User")
    context.register(Note.self, forEntity: "Note")

    let ada = try context.insert(User.self, entity: "User")
    try ada.setFirstName("Ada")
    try ada.setLastName("Lovelace")
    try ada.setEmail("ada@example.org")
    let alan = try context.insert(User.self, entity: "User")
    try alan.setFirstName("Alan")
    try alan.setLastName("Turing")
    try alan.setEmail("Alan.Turing@Example.ORG")
    _ = try trySave(context, "Ada and Alan")
    print("  Alan's e-mail as stored: \(try alan.email ?? "")")

    // Blank first name, malformed e-mail: the app's rules say why.
    let grace = try context.insert(User.self, entity: "User")
    try grace.setFirstName("   ")
    try grace.setEmail("grace-at-navy")
    _ = try trySave(context, "a blank user")
    // Fix and save again: the failed save left every change in place.
    try grace.setFirstName("Grace")
    try grace.setLastName("Hopper")
    try grace.setEmail("ada@example.org")
    _ = try trySave(context, "Grace with Ada's e-mail")
    try grace.setEmail("grace@navy.mil")
    _ = try trySave(context, "Grace")

    for text in ["Notes on the Analytical Engine", "Note G"] {
        let note = try context.insert(Note.self, entity: "Note")
        try note.set("text", text)
        try note.setObject(ada, forKey: "user")
    }
    _ = try trySave(context, "Ada's notes")

    // Ada has notes: the app refuses to delete her, before and at save.
    do {
        try ada.validateForDelete()
    } catch {
        print("validateForDelete: \(error)")
    }
    try context.delete(ada)
    if !(try trySave(context, "deleting Ada")) { context.rollback() }
    try context.delete(alan)
    _ = try trySave(context, "deleting Alan")

    for user in try context.fetch("User").compactMap({ $0 as? User }) {
        print("\(user.objectID): \(try user.displayName) <\(try user.email ?? "")>, \(try user.notes.count) note(s)")
    }
    try store.checkpoint()
} catch {
    FileHandle.standardError.write(Data("users-example: \(error)\n".utf8))
    exit(1)
}
