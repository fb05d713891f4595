import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// `.schema --mermaid`, `--dot`, `--sql`, and an inferred model's guesses marked.
@Suite("Schema diagrams and DDL")
struct SchemaDiagramTests {
    func exampleShell() throws -> CapturedShell {
        try CapturedShell(store: try BrokenStores.copy(ShellFixtures.exampleStore), model: ShellFixtures.exampleModel)
    }

    @Test func mermaidDrawsEntitiesAttributesAndRelationshipsWithCardinalityAndInverse() throws {
        #expect(try exampleShell().run(".schema --mermaid") == """
            erDiagram
                Book {
                    Float price
                    String title
                }
                BookCategory {
                    String name
                }
                Page {
                    String text
                }
                Book }o--o| BookCategory : "category / books"
                Book |o--o{ Page : "pages / book"

            """)
    }

    @Test func dotDrawsRecordsAndLabelledEdges() throws {
        let dot = try exampleShell().run(".schema --dot Book")
        #expect(dot.hasPrefix("digraph model {\n"))
        #expect(dot.contains("    \"Book\" [label=\"{Book|price : Float\\ltitle : String\\l}\"];\n"))
        #expect(dot.contains("    \"Book\" -> \"BookCategory\" [headlabel=\"category 0..1\", taillabel=\"books 0..*\", dir=both, arrowhead=tee, arrowtail=crow];\n"))
        #expect(dot.hasSuffix("}\n"))
    }

    @Test func sqlPrintsTheFilesOwnDDL() throws {
        let sql = try exampleShell().run(".schema --sql")
        #expect(sql.hasPrefix("CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZPRICE FLOAT, ZTITLE VARCHAR );\n"))
        #expect(sql.contains("CREATE INDEX ZBOOK_ZCATEGORY_INDEX ON ZBOOK (ZCATEGORY);\n"))
    }

    @Test func modelSaysWhichVersionOfWhichBundle() throws {
        let shell = try exampleShell()
        shell.shell.settings.mode = .csv
        let model = try shell.run(".model")
        #expect(model.contains("model from,model file \(ShellFixtures.exampleModel)\n"))
        #expect(model.contains("model version,BookStore (the bundle's current; versions: BookStore)\n"))
    }

    @Test func inheritanceIsDrawn() throws {
        guard let source = SubentityColumnsTests.sampleModelStore else { return }
        let shell = try CapturedShell(store: try BrokenStores.copy(source))
        let mermaid = try shell.run(".schema --mermaid")
        #expect(mermaid.contains("    LuxuryCar |o..|| SportCar : \"is a\"\n"))
        #expect(mermaid.contains("    SportCar\n"))
        #expect(try shell.run(".schema --dot").contains("    \"LuxuryCar\" -> \"SportCar\" [arrowhead=empty, style=dashed, label=\"is a\"];\n"))
    }

    @Test func anInferredModelMarksItsGuessesAndSaysHowToGiveTheRealOne() throws {
        let path = try ScratchDirectory.make("graphstore-inferred").appendingPathComponent("notes.sqlite").path
        let model = try ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string) }
        }
        _ = try PersistentStore.create(at: path, model: model)
        let shell = try CapturedShell(store: path)
        shell.shell.settings.mode = .csv
        let schema = try shell.run(".schema")
        #expect(schema.contains("Note,text,attribute,String,true,ZNOTE.ZTEXT,guessed: String from the column type VARCHAR and its values\n"))
        #expect(shell.errors.hasSuffix(SchemaCommand.inferredNote))
        #expect(SchemaCommand.inferredNote.contains("--model PATH"))
        #expect(try exampleShell().run(".schema Book").contains("guessed") == false)
    }
}
