import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// TAB completion, driven by each command's usage text.
@Suite struct CompletionTests {
    /// A declaration in the style of `fetch`'s, for the expectation tests.
    static let fetch = ShellCommand(
        "fetch",
        arguments: [
            .value(Placeholder("ENTITY", .entity)), .optional([.literal("where"), .value(Placeholder("PREDICATE", .predicate))]),
            .optional([.literal("sort"), .value(Placeholder("KEY", .keyPath)), .optional([.literal("asc", "desc")])]),
            .optional([.literal("limit"), .value(Placeholder("N", .wholeNumber(from: 0)))]),
        ], summary: "fetch objects", example: "fetch Book"
    ) { _, _ in }

    func completer() throws -> (ShellHarness, Completer) {
        let harness = try ShellHarness()
        return (harness, Completer(shell: harness.shell))
    }

    func texts(_ line: String) throws -> [String] {
        let (harness, completer) = try completer()
        return withExtendedLifetime(harness) { completer.complete(line).candidates.map(\.text) }
    }

    @Test func commandNames() throws {
        #expect(try texts(".ro") == [".rows"])
        #expect(try texts(".h").sorted() == [".header", ".headers", ".help", ".history"])
        let aliases = try texts("\\d")
        #expect(aliases.sorted() == ["\\d", "\\dt"])
        let all = try texts("")
        #expect(all.contains(".entities") && all.contains("fetch") && !all.contains("\\d"))
    }

    @Test func entityNames() throws {
        #expect(try texts(".rows Bo") == ["Book", "BookCategory"])
        #expect(try texts(".rows bookc") == ["BookCategory"])
        #expect(try texts("fetch P") == ["Page"])
        #expect(try texts(".rows Book ").isEmpty)  // LIMIT: nothing to offer
    }

    @Test func keyPathsInPredicates() throws {
        #expect(try texts("fetch Book where ti") == ["title"])
        #expect(try texts("fetch Book where category.na") == ["category.name"])
        #expect(try texts("fetch Book where price > 3 AND category.") == ["category.name", "category.books"])
        #expect(try texts("fetch Book where (pages.@c") == ["pages.@count"])
        #expect(try texts("fetch BookCategory where books.category.name") == ["books.category.name"])
        #expect(try texts("fetch Book where nosuch.x").isEmpty)
    }

    @Test func operatorsAndJoiners() throws {
        let afterKey = try texts("fetch Book where title ")
        #expect(afterKey.prefix(6) == ["==", "!=", "<", "<=", ">", ">="])
        #expect(afterKey.contains("BEGINSWITH"))
        #expect(try texts("fetch Book where title beg") == ["BEGINSWITH"])
        #expect(try texts("fetch Book where title == 'Dune' ") == ["AND", "OR"])
        #expect(try texts("fetch Book where price > 3 o") == ["OR"])
        #expect(try texts("fetch Book where title == 'Du").isEmpty)  // inside a string
    }

    /// The comparison words offered fit the key's type: no CONTAINS after a number.
    @Test func operatorsFitTheKeysType() throws {
        #expect(try texts("fetch Book where price ") == ["==", "!=", "<", "<=", ">", ">=", "IN", "BETWEEN"])
        #expect(try texts("fetch Book where price c").isEmpty)
        #expect(try texts("fetch Book where category.name c") == ["CONTAINS"])
        #expect(try texts("fetch Book where pages co") == ["CONTAINS"])
        #expect(try texts("fetch Book where category ") == ["==", "!=", "<", "<=", ">", ">=", "IN"])
        #expect(try texts("fetch Book where pages.@count b") == ["BETWEEN"])
        // A key the entity does not have: every word, as before.
        #expect(try texts("fetch Book where SELF c") == ["CONTAINS"])
        #expect(try texts("fetch Book where nosuch ").contains("MATCHES"))
    }

    @Test func literalWordsFromTheUsage() throws {
        #expect(try texts("fetch Book wh") == ["where"])
        #expect(try texts("fetch Book sort title d") == ["desc"])
        #expect(try texts("fetch Book sort title n") == ["nocase"])
        #expect(try texts(".headers o") == ["on", "off"])
        #expect(try texts(".mode j") == ["json", "jsonl"])
        #expect(try texts(".help .sch") == [".schema"])
        #expect(try texts(".parameter u") == ["unset"])
    }

    @Test func parameterNames() throws {
        let (harness, completer) = try completer()
        try harness.shell.parameters.set("minPrice", from: "12")
        #expect(completer.complete("fetch Book where price > $mi").candidates.map(\.text) == ["$minPrice"])
        #expect(completer.complete(".parameter unset m").candidates.map(\.text) == ["minPrice"])
    }

    /// The commands of the fetch, validation and undo work complete from their own usage.
    @Test func objectCommandsComplete() throws {
        #expect(try texts("insert Bo") == ["Book", "BookCategory"])
        #expect(try texts("insert Book ti") == ["title="])
        #expect(try texts("insert Book title='Dune' pr") == ["price="])
        #expect(try texts("set Book/p1 pr") == ["price="])
        #expect(try texts("show Book") == ["Book", "BookCategory"])
        #expect(try texts("count Book where category.na") == ["category.name"])
        #expect(try texts("fetch Book sort ti") == ["title"])
        #expect(try texts("explain f") == ["fetch"])
    }

    @Test func keyPathsAfterAnEntityInSchema() throws {
        #expect(try texts(".schema Book.ca") == ["Book.category"])
        #expect(try texts(".schema Bo") == ["Book", "BookCategory"])
    }

    @Test func fileNames() throws {
        let (harness, completer) = try completer()
        _ = FileManager.default.createFile(atPath: harness.directory + "/script.graphstore", contents: Data())
        #expect(completer.complete(".read scr").candidates.map(\.text) == ["script.graphstore"])
        #expect(completer.complete(".read exa").candidates.map(\.text) == ["examples/"])
        #expect(completer.complete(".open examples/BookStore/B").candidates.map(\.text) == ["examples/BookStore/BookStore.sqlite"])
        #expect(completer.complete(".open --model examples/").candidates.map(\.display) == ["BookStore/"])
        #expect(completer.complete(".open -").candidates.map(\.text) == ["--write", "--readonly", "--model", "--create"])
        // A command shortened to its prefix completes as the command; .rows offers tables too.
        #expect(completer.complete(".ro Z_P").candidates.map(\.text) == ["Z_PRIMARYKEY"])
        #expect(completer.complete(".pag ").candidates.map(\.text) == ["on", "off", "auto"])
    }

    @Test func editInsertsTheRestOrTheSharedPrefix() throws {
        let (harness, completer) = try completer()
        _ = harness
        // One candidate: the rest of it and a space.
        #expect(completer.complete(".ent").edit == Completion.Edit(deleteCount: 0, insert: "ities "))
        // Several: what they share.
        #expect(completer.complete(".rows Bo").edit == Completion.Edit(deleteCount: 0, insert: "ok"))
        // Nothing shared beyond the word: list instead.
        #expect(completer.complete(".rows Book").edit == nil)
        // A relationship may go on: no space after it.
        #expect(completer.complete("fetch Book where categ").edit == Completion.Edit(deleteCount: 0, insert: "ory"))
        // Typed in lower case: the word is retyped in the entity's case.
        #expect(completer.complete(".rows page").edit == Completion.Edit(deleteCount: 4, insert: "Page "))
    }

    @Test func listingGoesDownColumns() {
        let listing = CompletionListing.columns(["a", "b", "c", "d", "e"], width: 9)
        #expect(listing == "a  c  e\nb  d\n")
    }

    func expected(_ syntax: ArgumentSyntax, after words: [String]) -> [WordChoice] {
        ArgumentExpectations(syntax, after: words).words.map(\.word)
    }

    @Test func expectationsFollowTheDeclaration() {
        let open = OpenCommand.command.arguments
        let path = Placeholder("PATH", .file)
        #expect(expected(open, after: []) == [.placeholder(OpenCommand.store), .literal("--write"), .literal("--readonly"), .literal("--model"), .literal("--create")])
        #expect(expected(open, after: ["--model"]) == [.placeholder(path)])
        #expect(expected(open, after: ["--model", "m"]) == [.placeholder(OpenCommand.store), .literal("--write"), .literal("--readonly"), .literal("--create")])
        #expect(expected(open, after: ["--write", "--model", "m", "a.sqlite"]) == [.literal("--readonly"), .literal("--create")])
        // An option may follow the store too, once.
        #expect(expected(open, after: ["a.sqlite"]) == [.literal("--write"), .literal("--readonly"), .literal("--model"), .literal("--create")])
        let parameter = ParameterCommand.command.arguments
        #expect(expected(parameter, after: []) == [.literal("set"), .literal("unset"), .literal("list"), .literal("clear")])
        #expect(expected(parameter, after: ["unset"]) == [.placeholder(ParameterCommand.parameterName)])
        let afterWhere = ArgumentExpectations(Self.fetch.arguments, after: ["Book", "where", "price", ">"]).words
        #expect(afterWhere.count == 1)
        #expect(afterWhere.first?.entity == "Book")
        #expect(afterWhere.first?.restOfLineFrom == 2)
        #expect(expected(PrintCommand.command.arguments, after: ["a", "b"]) == [.placeholder(PrintCommand.text)])
        // `sort KEY [asc|desc] [nocase], …`: after a comma, another key.
        let sort = ArgumentSyntax(FetchCommandLine.arguments)
        #expect(expected(sort, after: ["Book", "sort", "title", "desc,"]) == [.placeholder(Placeholder("KEY", .keyPath))])
        #expect(expected(sort, after: ["Book", "sort", "title", "desc", ","]) == [.placeholder(Placeholder("KEY", .keyPath))])
    }

    /// Every command's declaration accepts its own example, and completion offers each of
    /// the example's words in turn.
    @Test func everyExampleMatchesItsDeclaration() throws {
        let harness = try ShellHarness()
        for command in harness.shell.commands {
            let text = Substring(command.example).drop { !$0.isWhitespace }.drop(while: \.isWhitespace)
            let words = try CommandLineSplitter.split(text)
            #expect(throws: Never.self, "\(command.name): \(command.usage) does not accept \(command.example)") {
                try ParsedArguments(words, text: text, command: command.name, syntax: command.arguments)
            }
            var accepted = true
            for i in 0..<words.count {
                let expected = ArgumentExpectations(command.arguments, after: words.prefix(i).map(\.text)).words
                if !expected.contains(where: { $0.restOfLineFrom != nil || Self.accepts($0.word, words[i].text) }) { accepted = false }
            }
            #expect(accepted, "\(command.name): completion of \(command.usage) does not follow \(command.example)")
        }
    }

    static func accepts(_ choice: WordChoice, _ word: String) -> Bool {
        if case .placeholder = choice { return true }
        return choice.literalMatch(word) != nil
    }
}
