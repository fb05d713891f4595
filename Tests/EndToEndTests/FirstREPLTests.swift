import Foundation
import Testing

/// The first REPL, end to end: the built binary on the bundled store and on bad files.
@Suite struct FirstREPLTests {
    @Test func entitiesOfTheExampleStore() throws {
        let result = try GraphStoreBinary.run([GraphStoreBinary.exampleStore, "-c", ".entities"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("| Book         | ZBOOK         | 1     |        | 3     |"))
        #expect(result.stdout.contains("| BookCategory | ZBOOKCATEGORY | 2     |        | 2     |"))
    }

    @Test func rowsAndSchemaWithTheModelFile() throws {
        let model = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path
        let result = try GraphStoreBinary.run(["--model", model, GraphStoreBinary.exampleStore, "-c", ".rows Book 2", "-c", ".schema Page"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("| 1    | 1     | 1     | 10     | The first book  | 1         |"))
        #expect(!result.stdout.contains("The third book"))
        #expect(result.stdout.contains("| Page   | book     | to-one    | Book   | true     | ZPAGE.ZBOOK,Z_FOK_BOOK"))
    }

    @Test func pipedCommandsHaveNoPromptAndStopAtTheFirstError() throws {
        let result = try GraphStoreBinary.run([GraphStoreBinary.exampleStore], input: ".help\n.rows Nope\n.entities\n")
        #expect(result.status == 1)
        #expect(result.stderr == "stdin:2: no entity or table named Nope; entities: Book, BookCategory, Page; other tables: Z_METADATA, Z_PRIMARYKEY\n")
        #expect(result.stdout.contains(".rows ENTITY|TABLE [LIMIT]"))
        #expect(!result.stdout.contains("ZBOOKCATEGORY"))
        #expect(!result.stdout.contains("> "))
    }

    @Test func aFailingCommandExitsOne() throws {
        let result = try GraphStoreBinary.run([GraphStoreBinary.exampleStore, "-c", ".rows Book x"])
        #expect(result.status == 1)
        #expect(result.stderr == "-c:1: .rows: LIMIT must be a whole number, not x\n")
    }

    @Test func notACoreDataStoreExitsFour() throws {
        let path = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let plain = (path as NSString).deletingLastPathComponent + "/plain.txt"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: plain))
        let result = try GraphStoreBinary.run([plain, "-c", ".entities"])
        #expect(result.status == 4)
        #expect(result.stderr == "graphstore: \(plain): not an SQLite database (no SQLite header)\n")
        let missing = try GraphStoreBinary.run(["/nonexistent/store.sqlite"])
        #expect(missing.status == 4)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func truncatedStoreExitsFour() throws {
        let path = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let result = try GraphStoreBinary.run([path, "-c", ".entities"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("truncated"))
    }

    @Test func usageErrorsExitTwo() throws {
        let result = try GraphStoreBinary.run(["--no-such-flag"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option --no-such-flag"))
        #expect(try GraphStoreBinary.run(["--help"]).status == 0)
    }

    @Test func readingTheStoreChangesNoByte() throws {
        let path = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try GraphStoreBinary.run([path, "-c", ".entities", "-c", ".rows Book", "-c", ".schema"])
        #expect(result.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(siblings == ["BookStore.sqlite"])
    }
}
