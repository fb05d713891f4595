import Foundation
import Testing

@testable import GraphStore

@Suite("BEGINSWITH uses the index")
struct FetchIndexPlanTests {
    @Test("BEGINSWITH and LIKE with a literal prefix search the fetch index; [c] scans")
    func prefixSearch() throws {
        let (store, context) = try FetchFixtures.sampleStore()
        let plan = try store.queryPlan(for: FetchRequest(entityName: "Person", format: "name BEGINSWITH 'Al' AND age > 5"))
        #expect(plan.text.contains("SEARCH t0 USING INDEX Z_Person_byName (ZNAME>? AND ZNAME<?)"), "\(plan.text)")
        let like = try store.queryPlan(for: FetchRequest(entityName: "Person", format: "name LIKE 'Al*e'"))
        #expect(like.text.contains("USING INDEX Z_Person_byName"), "\(like.text)")
        let folded = try store.queryPlan(for: FetchRequest(entityName: "Person", format: "name BEGINSWITH[c] 'al'"))
        #expect(folded.text.contains("SCAN t0"), "\(folded.text)")
        #expect(try FetchFixtures.names(context.fetch(FetchRequest(entityName: "Person", format: "name BEGINSWITH 'Al'"))) == ["Alice"])
    }

    @Test("the prefix range ends at the prefix's successor")
    func successor() {
        #expect(PredicateSQLCompiler.successor(of: "ab") == "ac")
        #expect(PredicateSQLCompiler.successor(of: "a\u{D7FF}") == "a\u{E000}")
        #expect(PredicateSQLCompiler.successor(of: "a\u{10FFFF}") == "b")
        #expect(PredicateSQLCompiler.successor(of: "\u{10FFFF}") == nil)
    }

    @Test("grapheme clusters: the range narrows, the function decides")
    func graphemes() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        for name in ["e\u{301}t\u{E9}", "et", "🇺🇸", "🇺x"] {
            try context.insert("Person").set("name", name)
        }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let e = try FetchFixtures.names(reader.fetch(FetchRequest(entityName: "Person", format: "name BEGINSWITH 'e'")))
        #expect(e == ["et"])
        let flag = try FetchFixtures.names(reader.fetch(FetchRequest(entityName: "Person", format: "name BEGINSWITH %@", "\u{1F1FA}")))
        #expect(flag == ["🇺x"])
    }
}
