import Foundation
import Testing
import TestScratch

/// `--browse-mismatch`: a store that does not match `--model` still opens, read-only, with
/// its own model, the mismatch said first; without it, the refusal says how.
@Suite struct BrowseMismatchEndToEndTests {
    static var otherModel: String { GraphStoreBinary.packageRoot.appendingPathComponent("examples/GroceryDude/GroceryDude.xcdatamodeld").path }

    @Test func aMismatchedStoreOpensReadOnlyWithItsOwnModelWhenAsked() throws {
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        let before = BrokenStores.bytes(of: store)
        let result = try GraphStoreBinary.run(["--browse-mismatch", "--model", Self.otherModel, "--csv", store, ".model", "count Book"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("graphstore: \(store): the model does not match the store:\n  - entity Item is in the model"))
        #expect(result.stderr.hasSuffix("graphstore: browsing read-only instead; model: inferred from the store's schema\n"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines[1].hasPrefix("mismatch,\(Self.otherModel): entity Item is in the model"))
        #expect(result.stdout.contains("read-only,yes\n"))
        #expect(result.stdout.hasSuffix("count\n3\n"))
        #expect(BrokenStores.bytes(of: store) == before)
    }

    @Test func withoutItTheRefusalSaysHowToBrowse() throws {
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore)
        let result = try GraphStoreBinary.run(["--model", Self.otherModel, store, ".model"])
        #expect(result.status == 4)
        #expect(result.stderr.hasSuffix("\nhint: --browse-mismatch opens it read-only with its own model\n"))
    }
}

/// At a terminal, a store that does not match `--model` is offered for browsing.
@Suite(.serialized) struct BrowseMismatchPromptTests {
    func start() throws -> PseudoTerminal {
        let home = try ScriptTests.home()
        let environment = ["HOME": home.path, "TERM": "xterm", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PAGER": "", "NO_COLOR": "1"]
        let store = try BrokenStores.copy(GraphStoreBinary.exampleStore, name: "BookStore.sqlite")
        let terminal = try PseudoTerminal(arguments: ["--model", BrowseMismatchEndToEndTests.otherModel, store], environment: environment)
        #expect(terminal.waitFor { $0.currentLine.hasSuffix("with its own model? [y/N]") }, "\(terminal.screen.text)")
        return terminal
    }

    @Test func yesOpensItReadOnlyWithTheMismatchListedFirst() throws {
        let terminal = try start()
        terminal.type("y\r")
        #expect(terminal.waitFor { $0.currentLine == TerminalTests.prompt }, "\(terminal.screen.text)")
        #expect(terminal.screen.text.contains("graphstore: browsing read-only instead; model: inferred from the store's schema"))
        terminal.type(".model\r")
        // Its rows are wider than the terminal: records (\x auto), `item | mismatch`.
        #expect(terminal.waitFor(text: "| mismatch"), "\(terminal.screen.text)")
        terminal.type(".quit\r")
        #expect(terminal.waitForExit() == 0)
    }

    @Test func noLeavesItClosed() throws {
        let terminal = try start()
        terminal.type("n\r")
        #expect(terminal.waitForExit() == 4)
    }
}
