import Foundation
import Testing

/// Undo through the built binary: a journal recorded by one run replayed by another into a
/// fresh copy of the store. (The BookStore undo script is one of the ExampleTests scripts.)
@Suite struct UndoEndToEndTests {
    @Test func aJournalFromOneRunReplaysIntoAFreshCopyWithIdenticalRows() throws {
        let recorded = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let journal = (recorded as NSString).deletingLastPathComponent + "/session.journal"
        let session = """
            .journal \(journal)
            insert BookCategory name=Poetry
            begin odes
            insert Book title="Odes" price=9
            link Book/t2.category BookCategory/t1
            end
            set Book/p1 price=12
            undo
            redo
            save
            delete Book/p3
            undo
            delete Book/p2
            save

            """
        let first = try GraphStoreBinary.run(["--write", recorded], input: session)
        #expect(first.status == 0, "\(first.stderr)")
        let fresh = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let second = try GraphStoreBinary.run(["--write", fresh, "-c", "replay \(journal)"])
        #expect(second.status == 0, "\(second.stderr)")
        // Every column of every row (Z_PK, Z_ENT, Z_OPT included), as the binary reads them.
        let rows = ["-c", ".rows Book", "-c", ".rows BookCategory", "-c", ".rows Page", "-c", ".entities"]
        let a = try GraphStoreBinary.run([recorded] + rows)
        let b = try GraphStoreBinary.run([fresh] + rows)
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(b.stdout.contains("| 4    | 1     | 1     | 9      | Odes           | 3         |"))
        #expect(!b.stdout.contains("The second book"))
    }
}
