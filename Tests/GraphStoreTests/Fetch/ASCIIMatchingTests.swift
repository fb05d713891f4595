import Foundation
import Testing

@testable import GraphStore

/// The byte-level ASCII answers of the SQL functions agree with `StringMatching`.
@Suite("ASCII fast paths of the predicate functions")
struct ASCIIMatchingTests {
    @Test("random ASCII strings with CR, LF and case: same answers as the evaluator")
    func agree() {
        var rng = SeededGenerator(state: 42)
        let alphabet: [Character] = ["a", "A", "b", "B", "\r", "\n", " "]
        func random(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" }) }
        for _ in 0..<4000 {
            let text = random(Int.random(in: 0...6, using: &rng))
            let part = random(Int.random(in: 0...3, using: &rng))
            for options in [ComparisonOptions(), .caseInsensitive, [.caseInsensitive, .diacriticInsensitive], .normalized] {
                // The bytes as stored; under [c] the fast path lowers them as it reads.
                let folding = options.contains(.caseInsensitive) && !options.contains(.normalized)
                let (a, b) = (Array(text.utf8), Array(part.utf8))
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        #expect(ASCII.hasPrefix(a, b, caseInsensitive: folding) == StringMatching.hasPrefix(text, part, options: options), "\(text.debugDescription) BEGINSWITH \(part.debugDescription)")
                        #expect(ASCII.hasSuffix(a, b, caseInsensitive: folding) == StringMatching.hasSuffix(text, part, options: options), "\(text.debugDescription) ENDSWITH \(part.debugDescription)")
                        #expect(ASCII.contains(a, b, caseInsensitive: folding) == StringMatching.contains(text, part, options: options), "\(text.debugDescription) CONTAINS \(part.debugDescription)")
                        #expect(ASCII.equal(a, b, caseInsensitive: folding) == StringMatching.equal(text, part, options: options))
                        let (x, y) = folding ? (text.lowercased(), part.lowercased()) : (text, part)
                        let expected: Int64 = Array(x.utf8) == Array(y.utf8) ? 0 : (Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : 1)
                        #expect(ASCII.order(a, b, caseInsensitive: folding) == expected, "\(text.debugDescription) vs \(part.debugDescription)")
                    }
                }
            }
        }
    }

    @Test("CONTAINS over texts long enough to be scanned eight starts at a time: same answers as the evaluator")
    func longTexts() {
        var rng = SeededGenerator(state: 7)
        // Letters in both cases, CR LF, and the bytes that setting bit 5 turns into other
        // punctuation (@ [ ` {), never into a letter.
        let alphabet: [Character] = ["a", "A", "b", "B", "c", "\r", "\n", "@", "[", "`", "{", "1"]
        func random(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &rng) ?? "a" }) }
        for _ in 0..<3000 {
            let text = random(Int.random(in: 14...50, using: &rng))
            let part = random(Int.random(in: 1...4, using: &rng))
            for options in [ComparisonOptions(), .caseInsensitive] {
                let (a, b) = (Array(text.utf8), Array(part.utf8))
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        #expect(
                            ASCII.contains(a, b, caseInsensitive: options.contains(.caseInsensitive)) == StringMatching.contains(text, part, options: options),
                            "\(text.debugDescription) CONTAINS \(part.debugDescription) \(options)")
                    }
                }
            }
        }
        // The part at every place of a text, in and after each run of eight starts.
        for offset in 0..<40 {
            let text = String(repeating: "x", count: offset) + "aB1" + String(repeating: "y", count: 20)
            let found = Array(text.utf8).withUnsafeBufferPointer { t in Array("ab1".utf8).withUnsafeBufferPointer { ASCII.contains(t, $0, caseInsensitive: true) } }
            #expect(found, "at \(offset)")
        }
    }

    @Test("BEGINSWITH with an ASCII prefix: the rows SQL takes without the function match in memory too")
    func certainPrefixRows() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        // After the prefix: nothing, ASCII, a combining mark (joins the last character), an
        // emoji modifier, a precomposed letter, CR LF, invalid-looking U+0080, and a text
        // that only canonically starts with the prefix (U+212A KELVIN SIGN is K).
        let names = ["ab", "abc", "ab c", "ab\u{301}c", "ab\u{301}", "ab\u{1F3FB}", "abé", "ab\r\n", "ab\u{80}", "\u{212A}ab", "Kab", "a", "ac", "ab\u{200D}x"]
        for name in names { try context.insert("Person").set("name", name) }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let everyone = try reader.fetch("Person")
        for format in ["name BEGINSWITH 'ab'", "name BEGINSWITH 'a'", "name BEGINSWITH 'ab\\r'", "name BEGINSWITH 'K'", "name BEGINSWITH 'Ka'", "name BEGINSWITH[n] 'ab'", "name LIKE 'Ka*'"] {
            let predicate = try ObjectPredicate(format: format)
            let memory = Set(try everyone.filter { try predicate.evaluate(with: $0) }.compactMap { try $0.value(forKey: "name")?.stringValue })
            let sql = Set(try reader.fetch(FetchRequest(entityName: "Person", predicate: predicate)).compactMap { try $0.value(forKey: "name")?.stringValue })
            #expect(memory == sql, "\(format)")
        }
        let matches = try reader.fetch(FetchRequest(entityName: "Person", format: "name BEGINSWITH 'ab'")).compactMap { try $0.value(forKey: "name")?.stringValue }
        #expect(Set(matches) == ["ab", "abc", "ab c", "abé", "ab\r\n", "ab\u{80}"])
    }

    @Test("exact CONTAINS and ENDSWITH through SQLite's instr prefilter: the same rows as in memory")
    func bytePrefilter() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        // Canonical equivalents of K, ; and ` (Kelvin sign, Greek question mark, Greek
        // varia), a combining mark after the part, precomposed letters, CR LF, emoji.
        let names = ["Kab", "\u{212A}ab", "a;b", "a\u{37E}b", "x`", "x\u{1FEF}", "ab\u{301}", "abé", "Åb", "A\u{30A}b", "xab\r\n", "ab\r", "👍ab", "AB", ""]
        for name in names { try context.insert("Person").set("name", name) }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let everyone = try reader.fetch("Person")
        let formats = [
            "name CONTAINS 'ab'", "name ENDSWITH 'ab'", "name CONTAINS 'b'", "name CONTAINS 'Kab'", "name CONTAINS ';'", "name ENDSWITH '`'",
            "name CONTAINS 'ab\r'", "name ENDSWITH 'b\r\n'", "name CONTAINS[n] 'ab'", "name CONTAINS 'A'", "NOT name CONTAINS 'ab'",
        ]
        for format in formats {
            let predicate = try ObjectPredicate(format: format)
            let memory = Set(try everyone.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
            let sql = Set(try reader.fetchObjectIDs(FetchRequest(entityName: "Person", predicate: predicate)))
            #expect(memory == sql, "\(format)")
        }
        // The Kelvin sign is K to Swift's string comparison: both rows match (a key range
        // from 'Ka' to 'Kb' had left the Kelvin sign's row out).
        let kelvin = try ObjectPredicate(format: "name CONTAINS 'Ka'")
        #expect(try everyone.filter { try kelvin.evaluate(with: $0) }.count == 2)
        #expect(try reader.count(for: FetchRequest(entityName: "Person", predicate: kelvin)) == 2)
        let begins = try ObjectPredicate(format: "name BEGINSWITH 'Ka'")
        #expect(try everyone.filter { try begins.evaluate(with: $0) }.count == 2)
        #expect(try reader.count(for: FetchRequest(entityName: "Person", predicate: begins)) == 2)
    }

    @Test("through SQL: functions answer the same for ASCII and non-ASCII operands")
    func throughSQL() throws {
        let (store, context) = try FetchFixtures.peopleStore()
        for name in ["ab\r\ncd", "AB", "abc\r", "é\r\nx", "Éb"] { try context.insert("Person").set("name", name) }
        try context.save()
        let reader = ManagedObjectContext(store: store)
        let everyone = try reader.fetch("Person")
        for format in ["name BEGINSWITH 'ab\\r'", "name ENDSWITH '\\ncd'", "name CONTAINS[c] 'B'", "name ==[c] 'ab'", "name <[c] 'AC'", "name CONTAINS '\\r'", "name BEGINSWITH[cd] 'e'"] {
            let predicate = try ObjectPredicate(format: format)
            let memory = Set(try everyone.filter { try predicate.evaluate(with: $0) }.map(\.objectID))
            let sql = Set(try reader.fetchObjectIDs(FetchRequest(entityName: "Person", predicate: predicate)))
            #expect(memory == sql, "\(format)")
        }
    }
}
