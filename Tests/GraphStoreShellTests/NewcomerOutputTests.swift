import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// The output items of the issue "The shell, second pass" (a newcomer with sqlite3 and
/// psql habits), each as it reads now.
@Suite struct NewcomerOutputTests {
    /// `\timing` and `\x auto` typed at the prompt say what they set, as psql does; the
    /// same lines in a script print nothing (sqlite3's habit, and golden transcripts), unless
    /// they toggle.
    @Test func settingsAreConfirmedAtThePrompt() throws {
        let harness = try ShellHarness()
        let terminal = ScriptedTerminal([.line("\\timing"), .line("\\x auto"), .line("\\x off"), .line(".timer off"), .line("\\x on")])
        #expect(Session(shell: harness.shell, bail: false).run(terminal) == 0)
        #expect(harness.output == """
            timing is on
            expanded display is used automatically
            expanded display is off
            timing is off
            expanded display is on

            """)
        let script = try ShellHarness()
        script.run([".timer on", "\\x auto", "\\x off", ".timer off"])
        #expect(script.output.isEmpty)
        #expect(script.shell.settings.expanded == .off)
        // A toggle says where it went, in a script too.
        script.run(["\\timing", "\\x"])
        #expect(script.output == "timing is on\nexpanded display is on\n")
        // A script read at the prompt is a script.
        try "\\x auto\n".write(toFile: script.directory + "/settings.graphstore", atomically: true, encoding: .utf8)
        script.clear()
        #expect(Session(shell: script.shell, bail: false).run(ScriptedTerminal([.line(".read settings.graphstore")])) == 0)
        #expect(script.output.isEmpty)
        #expect(script.shell.settings.expanded == .auto)
    }

    /// `.schema --sql ENTITY` prints that entity's table and its indexes, not every table.
    @Test func schemaSQLOfOneEntity() throws {
        let harness = try ShellHarness()
        let book = try harness.output(of: ".schema --sql Book")
        #expect(book.contains("CREATE TABLE ZBOOK"))
        #expect(!book.contains("ZBOOKCATEGORY") && !book.contains("Z_PRIMARYKEY"), "\(book)")
        let all = try harness.output(of: ".schema --sql")
        #expect(all.contains("CREATE TABLE ZBOOKCATEGORY") && all.contains("CREATE TABLE Z_PRIMARYKEY"))
        // Every index of ZBOOK, and only of it.
        let store = try harness.shell.requireStore()
        for index in store.schema.indexes where index.sql != nil {
            #expect(book.contains(index.sql ?? "") == (index.table.uppercased() == "ZBOOK"), "\(index.name)")
        }
    }

    /// Three levels: each inherited property names the ancestor that declares it, the
    /// nearest one, and a property the entity declares itself is not marked.
    @Test func schemaNamesTheAncestorThatDeclaresEachProperty() throws {
        let directory = try ScratchDirectory.make("graphstore-declarers")
        let modelPath = directory.appendingPathComponent("Cars.xcdatamodel").path
        try FileManager.default.createDirectory(atPath: modelPath, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Vehicle" representedClassName="Vehicle">
                    <attribute name="wheels" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                </entity>
                <entity name="Car" representedClassName="Car" parentEntity="Vehicle">
                    <attribute name="maker" optional="YES" attributeType="String"/>
                </entity>
                <entity name="SportCar" representedClassName="SportCar" parentEntity="Car">
                    <attribute name="topSpeed" optional="YES" attributeType="Double" defaultValueString="0.0"/>
                </entity>
            </model>
            """.write(toFile: modelPath + "/contents", atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("cars.sqlite").path
        _ = try PersistentStore.create(at: path, model: try ModelFile(path: modelPath).model)
        let shell = try CapturedShell(store: path, model: modelPath)
        shell.shell.settings.mode = .csv
        let rows = try shell.run(".schema SportCar").split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("SportCar,wheels,") && $0.contains(",inherited from Vehicle") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("SportCar,maker,") && $0.hasSuffix(",inherited from Car") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix("SportCar,topSpeed,") && !$0.contains("inherited") }, "\(rows)")
        let car = try shell.run(".schema Car").split(separator: "\n").map(String.init)
        #expect(car.contains { $0.hasPrefix("Car,wheels,") && $0.contains(",inherited from Vehicle") }, "\(car)")
    }

    /// On the CoreDataPlus corpus store (`SampleModel_V2.sqlite`): `.schema LuxuryCar` marks
    /// what it inherits from Car, and says nothing of the sort for Car's own.
    @Test func schemaMarksInheritedProperties() throws {
        guard let source = SubentityColumnsTests.sampleModelStore else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            print("skipped schemaMarksInheritedProperties: ../shared/corpus is not present")
            return
        }
        let shell = try CapturedShell(store: try BrokenStores.copy(source))
        shell.shell.settings.mode = .csv
        let luxury = try shell.run(".schema LuxuryCar").split(separator: "\n").map(String.init)
        let maker = try #require(luxury.first { $0.hasPrefix("LuxuryCar,maker,") })
        #expect(maker.hasSuffix(",inherited from Car") || maker.contains(",inherited from Car;"), "\(maker)")
        let own = try #require(luxury.first { $0.hasPrefix("LuxuryCar,isLimitedEdition,") })
        #expect(!own.contains("inherited"), "\(own)")
        let owner = try #require(luxury.first { $0.hasPrefix("LuxuryCar,owner,") })
        #expect(owner.contains("inherited from Car; inverse"), "\(owner)")
        #expect(!(try shell.run(".schema Car")).contains("inherited"))
    }

    /// `.width` wraps a longer value as sqlite3 does: nothing is lost outside a terminal.
    @Test func widthWrapsRatherThanCuts() throws {
        let harness = try ShellHarness()
        harness.run([".width 5", "sql SELECT 'abcdefghijkl' AS word, 1 AS n"])
        #expect(harness.output == """
            +-------+---+
            | word  | n |
            +-------+---+
            | abcde | 1 |
            | fghij |   |
            | kl    |   |
            +-------+---+

            """)
    }
}
