import Foundation
import Testing

@testable import GraphStore

/// The SQL each construct compiles to (object-ID fetches, so the select list stays short).
@Suite("Fetch SQL shapes")
struct FetchSQLShapeTests {
    let store: PersistentStore

    init() throws {
        (store, _) = try FetchFixtures.peopleStore()
    }

    func whereClause(_ format: String, _ arguments: any PredicateArgument...) throws -> String {
        let request = FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: format, argumentArray: arguments))
        let sql = try store.sql(for: request, resultType: .objectIDs).sql
        return String(sql.dropFirst("SELECT t0.Z_PK, t0.Z_ENT FROM ZPERSON t0".count)).trimmingCharacters(in: .whitespaces)
    }

    func bindings(_ format: String) throws -> [SQLiteValue] {
        try store.sql(for: FetchRequest(entityName: "Person", format: format), resultType: .objectIDs).bindings
    }

    @Test("attributes and constants") func attributes() throws {
        #expect(try whereClause("name == 'Alice'") == "WHERE t0.ZNAME = ?")
        #expect(try whereClause("name != 'Alice'") == "WHERE t0.ZNAME IS NOT ?")
        #expect(try whereClause("name == nil") == "WHERE t0.ZNAME IS NULL")
        #expect(try whereClause("firstName == name") == "WHERE t0.ZFIRSTNAME IS t0.ZNAME")
        #expect(try whereClause("age >= 3 AND age < 9") == "WHERE t0.ZAGE >= ? AND t0.ZAGE < ?")
        #expect(try whereClause("age BETWEEN {1, 5}") == "WHERE t0.ZAGE >= ? AND t0.ZAGE <= ?")
        #expect(try whereClause("age IN {1, 'x', nil, 5}") == "WHERE t0.ZAGE IN (?, ?)")
        #expect(try whereClause("NOT age > 3") == "WHERE (t0.ZAGE > ?) IS NOT 1")
        #expect(try whereClause("NOT name == nil") == "WHERE NOT (t0.ZNAME IS NULL)")
        #expect(try whereClause("age > 1 OR (name == 'a' AND age < 0)") == "WHERE (t0.ZAGE > ? OR (t0.ZNAME = ? AND t0.ZAGE < ?))")
        #expect(try whereClause("age == '30'") == "WHERE 0")
        #expect(try whereClause("TRUEPREDICATE") == "")
    }

    @Test("constants are stored values: dates as seconds since 2001, booleans as 0/1") func storedConstants() throws {
        #expect(try bindings("born > CAST(60, 'NSDate') AND active == YES") == [.real(60), .integer(1)])
        let date = Date(timeIntervalSinceReferenceDate: 86_400)
        let request = try FetchRequest(entityName: "Person", format: "born == %@", date)
        #expect(try store.sql(for: request).bindings == [.real(86_400)])
    }

    @Test("to-one key paths are LEFT JOINs") func toOne() throws {
        #expect(try whereClause("address.geo.lat > 48") == "LEFT JOIN ZADDRESS t1 ON t1.Z_PK = t0.ZADDRESS LEFT JOIN ZGEO t2 ON t2.Z_PK = t1.ZGEO WHERE t2.ZLAT > ?")
        #expect(try whereClause("address.city == 'a' OR address.zip == 'b'") == "LEFT JOIN ZADDRESS t1 ON t1.Z_PK = t0.ZADDRESS WHERE (t1.ZCITY = ? OR t1.ZZIP = ?)")
        #expect(try whereClause("address == nil") == "WHERE t0.ZADDRESS IS NULL")
    }

    @Test("to-many key paths are correlated subqueries") func toMany() throws {
        #expect(try whereClause("ANY children.age > 10") == "WHERE EXISTS (SELECT 1 FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK AND t1.ZAGE > ?)")
        #expect(try whereClause("ALL children.age > 1") == "WHERE NOT EXISTS (SELECT 1 FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK AND (t1.ZAGE > ?) IS NOT 1)")
        #expect(try whereClause("NONE children.age > 1") == "WHERE NOT EXISTS (SELECT 1 FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK AND t1.ZAGE > ?)")
        #expect(try whereClause("children.@count == 2") == "WHERE (SELECT COUNT(*) FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK) = ?")
        #expect(try whereClause("children.@max.age == 2") == "WHERE (SELECT MAX(t1.ZAGE) FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK) = ?")
        #expect(try whereClause("children.name CONTAINS 'Bob'") == "WHERE EXISTS (SELECT 1 FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK AND t1.ZNAME = ?)")
        #expect(try whereClause("ANY labels.title == 'x'") == "WHERE EXISTS (SELECT 1 FROM Z_6LABELS t1 JOIN ZTAG t2 ON t2.Z_PK = t1.Z_9LABELS WHERE t1.Z_6PEOPLE = t0.Z_PK AND t2.ZTITLE = ?)")
        #expect(try whereClause("labels.@count > 1") == "WHERE (SELECT COUNT(*) FROM Z_6LABELS t1 WHERE t1.Z_6PEOPLE = t0.Z_PK) > ?")
        #expect(try whereClause("SUBQUERY(children, $c, $c.age > 1 AND SUBQUERY($c.toys, $t, $t.name == 'ball').@count > 0).@count == 1")
            == "WHERE (SELECT COUNT(*) FROM ZCHILD t1 WHERE t1.ZPARENT = t0.Z_PK AND t1.ZAGE > ? AND (SELECT COUNT(*) FROM ZTOY t2 WHERE t2.ZCHILD = t1.Z_PK AND t2.ZNAME = ?) > ?) = ?")
        #expect(try whereClause("address.person.children.@count > 1")
            == "LEFT JOIN ZADDRESS t1 ON t1.Z_PK = t0.ZADDRESS LEFT JOIN ZPERSON t2 ON t2.Z_PK = t1.ZPERSON WHERE CASE WHEN t2.Z_PK IS NULL THEN NULL ELSE (SELECT COUNT(*) FROM ZCHILD t3 WHERE t3.ZPARENT = t2.Z_PK) END > ?")
    }

    @Test("bindings print as SQL that yields them, control characters as char(N)") func bindingText() {
        #expect(GeneratedSQL.describe(.text("it's")) == "'it''s'")
        #expect(GeneratedSQL.describe(.text("Al\u{80}")) == "'Al' || char(128)")
        #expect(GeneratedSQL.describe(.text("\na\tb")) == "char(10) || 'a' || char(9) || 'b'")
        #expect(GeneratedSQL.describe(.text("")) == "''")
        #expect(GeneratedSQL.describe(.integer(3)) == "3")
    }

    @Test("string operators call the registered functions; BEGINSWITH adds a key range (and, for ASCII, the part it settles)") func strings() throws {
        #expect(
            try whereClause("name BEGINSWITH 'Al'")
                == "WHERE t0.ZNAME >= ? AND t0.ZNAME < ? AND (t0.ZNAME < ? OR GS_BEGINSWITH(t0.ZNAME, ?, ?))")
        // No key range for a prefix spelt in more than one way (É is also E and U+0301; the
        // Kelvin sign is K), no certain part for one ending in CR (CR LF is one character).
        #expect(try whereClause("name BEGINSWITH 'Él'") == "WHERE GS_BEGINSWITH(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name BEGINSWITH 'Ka'") == "WHERE GS_BEGINSWITH(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name BEGINSWITH 'A\\r'") == "WHERE t0.ZNAME >= ? AND t0.ZNAME < ? AND GS_BEGINSWITH(t0.ZNAME, ?, ?)")
        #expect(try bindings("name BEGINSWITH 'Al'") == [.text("Al"), .text("Am"), .text("Al\u{80}"), .text("Al"), .integer(0)])
        #expect(try whereClause("name BEGINSWITH[c] 'al'") == "WHERE GS_BEGINSWITH(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name ==[cd] 'al'") == "WHERE GS_EQUALS(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name <[c] 'al'") == "WHERE GS_COMPARE(t0.ZNAME, ?, ?) < ?")
        #expect(try whereClause("name LIKE 'a?c*'") == "WHERE t0.ZNAME >= ? AND t0.ZNAME < ? AND GS_LIKE(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name MATCHES '[a-z]+'") == "WHERE GS_MATCHES(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name CONTAINS[d] 'e'") == "WHERE GS_CONTAINS(t0.ZNAME, ?, ?)")
        // An exact CONTAINS or ENDSWITH of ASCII text: SQLite's instr rules rows out first;
        // not for K, ; or ` (canonical forms of non-ASCII characters), nor under [c] or [d].
        #expect(try whereClause("name CONTAINS 'li'") == "WHERE instr(t0.ZNAME, ?) > 0 AND GS_CONTAINS(t0.ZNAME, ?, ?)")
        #expect(try whereClause("name ENDSWITH[n] 'ce'") == "WHERE instr(t0.ZNAME, ?) > 0 AND GS_ENDSWITH(t0.ZNAME, ?, ?)")
        #expect(try bindings("name CONTAINS 'li'") == [.text("li"), .text("li"), .integer(0)])
        for format in ["name CONTAINS 'Ki'", "name CONTAINS 'a;b'", "name ENDSWITH '`'", "name CONTAINS[c] 'li'", "name CONTAINS 'é'"] {
            #expect(try !whereClause(format).contains("instr"), "\(format)")
        }
        #expect(try whereClause("name IN 'Alice and Bob'") == "WHERE GS_CONTAINS(?, t0.ZNAME, ?)")
        #expect(try whereClause("name IN[c] {'a', 'b'}") == "WHERE (GS_EQUALS(t0.ZNAME, ?, ?) OR GS_EQUALS(t0.ZNAME, ?, ?))")
    }

    @Test("what stays in memory, and why") func residual() throws {
        let request = try FetchRequest(entityName: "Person", format: "age > 2 AND name.length > 3 AND (age + 1) * 2 > 8")
        let generated = try store.sql(for: request, resultType: .objectIDs)
        #expect(generated.sql.hasSuffix("FROM ZPERSON t0 WHERE t0.ZAGE > ?"))
        #expect(generated.sql.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT"), "rows are read to finish in memory")
        #expect(generated.inMemoryPredicate?.predicateFormat == "name.length > 3 AND (age + 1) * 2 > 8")
        #expect(generated.notes.count == 2)
        let count = try store.sql(for: request, resultType: .count)
        #expect(count.sql.hasPrefix("SELECT t0.Z_PK"), "a count with an in-memory part reads rows")
    }
}
