import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// Drives the shell with its output captured.
final class CapturedShell {
    let shell: Shell

    init(store: String? = nil, model: String? = nil, write: Bool = false) throws {
        let box = OutputBox()
        shell = Shell(writeEnabled: write, output: { box.out += $0 }, diagnostics: { box.err += $0 })
        self.box = box
        if let store { try shell.open(path: store, modelPath: model) }
    }

    private let box: OutputBox

    /// Runs one line and returns what it printed.
    func run(_ line: String) throws -> String {
        box.out = ""
        try shell.execute(line)
        return box.out
    }

    /// Runs lines in order and returns what they printed together.
    func run(lines: String...) throws -> String {
        var printed = ""
        for line in lines { printed += try run(line) }
        return printed
    }

    /// What a line fails with, as its error says it ("no error" when it does not fail).
    func failure(of line: String) -> String {
        do {
            _ = try run(line)
        } catch {
            return "\(error)"
        }
        return "no error"
    }

    /// What the shell wrote to standard error so far.
    var errors: String { box.err }

    final class OutputBox {
        var out = ""
        var err = ""
    }
}

enum ShellFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var exampleStore: String { root.appendingPathComponent("examples/BookStore/BookStore.sqlite").path }
    static var exampleModel: String { root.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path }
}

@Suite struct InspectionCommandTests {
    @Test func modelSaysWhereTheModelCameFrom() throws {
        let shell = try CapturedShell(store: ShellFixtures.exampleStore, model: ShellFixtures.exampleModel)
        shell.shell.settings.mode = .csv
        let text = try shell.run(".model")
        #expect(text.contains("model from,model file \(ShellFixtures.exampleModel)\n"))
        #expect(text.contains("entities,3\n"))
        let inferred = try CapturedShell(store: ShellFixtures.exampleStore)
        inferred.shell.settings.mode = .csv
        let notes = try inferred.run(".model")
        #expect(notes.contains("model from,inferred from the store's schema\n"))
        #expect(notes.contains("inferred,property names are guessed"))
    }

    /// A to-one keeps the minimum its model gives (it feeds the version hash), but only a
    /// to-many's counts are rules, so only they are shown.
    @Test func schemaShowsCountsOfToManysOnly() {
        let toOne = RelationshipDescription("owner", to: "Person").minCount(1)
        #expect(SchemaCommand.details(of: toOne) == "inverse none; delete rule Nullify")
        let toMany = RelationshipDescription("cars", to: "Car", toMany: true).count(1...5)
        #expect(SchemaCommand.details(of: toMany) == "inverse none; delete rule Nullify; min count 1; max count 5")
    }

    @Test func showPrintsOneObjectAndFollowsRelationships() throws {
        let shell = try CapturedShell(store: ShellFixtures.exampleStore, model: ShellFixtures.exampleModel)
        shell.shell.settings.mode = .csv
        let book = try shell.run("show Book/1")
        #expect(book.contains("objectID,id,Book/p1\n"))
        #expect(book.contains("title,String,The first book\n"))
        #expect(book.contains("category,to-one,BookCategory/p1\n"))
        // An ordered relationship says so, as .schema does (it once said only to-many).
        #expect(book.contains("pages,ordered to-many,0\n"))
        let category = try shell.run("show Book/p1.category")
        #expect(category.contains("name,String,Fiction\n"))
        #expect(category.contains("books,to-many,\"2: Book/p1, Book/p2\"\n"))
        let books = try shell.run("show BookCategory/p1.books")
        #expect(books == "object,price,title\nBook/p1,10,The first book\nBook/p2,15,The second book\n")
        let uri = try #require(book.split(separator: "\n").first { $0.hasPrefix("uri,") }).split(separator: ",")[2]
        #expect(uri.hasPrefix("x-coredata://") && uri.hasSuffix("/Book/p1"))
        #expect(try shell.run("show \(uri).title") == "object,title\nBook/p1,The first book\n")
    }

    @Test func showDepthFollowsRelationshipsWithPastableIDs() throws {
        let shell = try CapturedShell(store: ShellFixtures.exampleStore, model: ShellFixtures.exampleModel)
        shell.shell.settings.mode = .csv
        let reached = try shell.run("show Book/p1 --depth 2")
        var objects: [String] = []
        for line in reached.split(separator: "\n").dropFirst() {
            let object = String(line.split(separator: ",")[0])
            if !objects.contains(object) { objects.append(object) }
        }
        #expect(objects == ["Book/p1", "BookCategory/p1", "Book/p2"])
        #expect(try shell.run("show Book/p1 --depth 1").contains("BookCategory/p1,books,to-many,\"2: Book/p1, Book/p2\"\n"))
        // Every ID shown can be typed back, as can the full URI.
        let uri = try #require(reached.split(separator: "\n").first { $0.hasPrefix("BookCategory/p1,uri,") }).split(separator: ",")[3]
        #expect(try shell.run("show \(uri).name") == "object,name\nBookCategory/p1,Fiction\n")
    }

    @Test func objectCommandsTakeTheIDOrTheFullURI() throws {
        let shell = try CapturedShell(store: try BrokenStores.copy(ShellFixtures.exampleStore), model: ShellFixtures.exampleModel, write: true)
        shell.shell.settings.mode = .csv
        let uri = try #require(try shell.run("show Book/p1").split(separator: "\n").first { $0.hasPrefix("uri,") }).split(separator: ",")[2]
        #expect(try shell.run(lines: "set \(uri) price=11", "link \(uri).category BookCategory/p2", "show Book/1").contains("category,to-one,BookCategory/p2\n"))
        #expect(try shell.run("show Book/p1.price") == "object,price\nBook/p1,11\n")
        #expect(try shell.run(lines: "delete \(uri)", "count Book") == "deleted Book/p1\ncount\n2\n")
    }

    @Test func recordModesCarryEachObjectsIDAndURI() throws {
        let shell = try CapturedShell(store: ShellFixtures.exampleStore, model: ShellFixtures.exampleModel)
        shell.shell.settings.mode = .jsonl
        let line = try shell.run("fetch Book sort title limit 1")
        #expect(line.hasPrefix("{\"object\":\"Book/p1\",\"uri\":\"x-coredata://"))
        #expect(line.contains("/Book/p1\",\"price\":10,"))
        shell.shell.settings.mode = .csv
        #expect(try shell.run("fetch Book sort title limit 1").hasPrefix("object,price,title,category\nBook/p1,"))
    }

    @Test func showExplainsWhatIsWrong() throws {
        let shell = try CapturedShell(store: ShellFixtures.exampleStore, model: ShellFixtures.exampleModel)
        #expect(throws: ShellError.self) { try shell.run("show Book/99") }
        #expect(throws: ShellError.self) { try shell.run("show Book/x") }
        #expect(throws: ShellError.self) { try shell.run("show Book/1.nope") }
        #expect(throws: ShellError.self) { try shell.run("show Nope/1") }
        do {
            _ = try shell.run("show BookCategory/1.books.category")
        } catch let error as ShellError {
            #expect(error.message == "cannot follow category: books is a to-many relationship")
        }
    }
}
