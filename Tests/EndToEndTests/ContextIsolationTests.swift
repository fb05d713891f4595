import Foundation
import Testing
import TestScratch

/// Contexts and objects stay in the isolation domain that made them: the compiler refuses
/// to hand one to another task (strict concurrency, Swift 6), and accepts an ObjectID.
@Suite struct ContextIsolationTests {
    func compile(_ source: String) throws -> (status: Int32, output: String) {
        let file = try ScratchDirectory.make("graphstore-isolation").appendingPathComponent("App.swift").path
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        return try SwiftCompiler.check([file])
    }

    @Test func theViewContextCannotBeUsedFromABackgroundTask() throws {
        let result = try compile("""
            import GraphStore
            @MainActor func leak(_ container: PersistentContainer) async {
                let context = container.viewContext
                await Task.detached { _ = context.hasChanges }.value
            }
            """)
        #expect(result.status != 0 && result.output.contains("data race"), "\(result.output)")
    }

    @Test func anObjectCannotLeaveItsBackgroundTask() throws {
        let result = try compile("""
            import GraphStore
            func leak(_ container: PersistentContainer) async throws {
                let object = try await container.performBackgroundTask { context in try context.insert("Book") }
                _ = object
            }
            """)
        #expect(result.status != 0 && result.output.contains("Sendable"), "\(result.output)")
    }

    @Test func objectIDsCrossBetweenContexts() throws {
        let result = try compile("""
            import GraphStore
            @MainActor func work(_ container: PersistentContainer) async throws {
                let id = try await container.performBackgroundTask { context in
                    let object = try context.insert("Book")
                    try context.save()
                    return object.objectID
                }
                _ = try container.viewContext.object(for: id)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }
}
