import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// The object commands (insert, set, delete, link, unlink, save, rollback) and `validate`,
/// run in-process on real stores.
@Suite struct ObjectCommandTests {
    /// The model, as an Xcode model file (the shell opens stores with `--model`).
    static let modelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Book" representedClassName="Book" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <attribute name="price" optional="YES" attributeType="Double" minValueString="15"/>
                <attribute name="pages" optional="YES" attributeType="Integer 16"/>
                <attribute name="published" optional="YES" attributeType="Date"/>
                <attribute name="inPrint" optional="YES" attributeType="Boolean"/>
                <attribute name="isbn" optional="YES" attributeType="String"/>
                <attribute name="id" optional="YES" attributeType="UUID"/>
                <attribute name="cover" optional="YES" attributeType="Binary"/>
                <attribute name="amount" optional="YES" attributeType="Decimal"/>
                <attribute name="site" optional="YES" attributeType="URI"/>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="isbn"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Shelf" representedClassName="Shelf" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
            </entity>
        </model>
        """

    /// A shell on a store holding one shelf (p1) with one book (p1), and what it printed.
    final class Session {
        final class Capture {
            var output = ""
            var diagnostics = ""
        }

        let shell: Shell
        let path: String
        private let capture = Capture()
        var output: String { capture.output }
        var diagnostics: String { capture.diagnostics }

        init(write: Bool = true) throws {
            let directory = try ScratchDirectory.make("graphstore-shell")
            let modelFolder = directory.appendingPathComponent("Shop.xcdatamodel")
            try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
            try ObjectCommandTests.modelXML.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
            path = directory.appendingPathComponent("shop.sqlite").path
            let store = try PersistentStore.create(at: path, model: try ModelFile.load(path: modelFolder.path))
            let context = ManagedObjectContext(store: store)
            let shelf = try context.insert("Shelf")
            try shelf.set("name", "Fiction")
            let book = try context.insert("Book")
            try book.set("title", "Dune")
            try book.set("price", 18.5)
            try book.setObject(shelf, forKey: "shelf")
            try context.save()
            let capture = self.capture
            shell = Shell(writeEnabled: write, output: { capture.output += $0 }, diagnostics: { capture.diagnostics += $0 })
            try shell.open(path: path, modelPath: modelFolder.path)
        }

        /// Runs lines; returns what they printed on the output.
        @discardableResult
        func run(_ lines: String...) throws -> String {
            capture.output = ""
            capture.diagnostics = ""
            for line in lines { try shell.execute(line) }
            return capture.output
        }

        /// The error a line fails with, or nil when it succeeds.
        func failure(_ line: String) -> ShellError? {
            do {
                try run(line)
                return nil
            } catch {
                return error as? ShellError
            }
        }
    }

    @Test func insertTypesEveryValueByItsAttribute() throws {
        let s = try Session()
        let printed = try s.run(
            #"insert Book title="Dune Messiah" price=19.5 pages=256 published=1969-10-15 inPrint=yes isbn='978-0' id=6F9619FF-8B86-D011-B42D-00C04FC964FF cover=0x89504e47 amount=12.30 site=https://example.org/dm"#)
        #expect(printed == "inserted Book/t1\n")
        let book = try s.shell.requireContext().object(named: "Book/t1")
        #expect(try book.value(forKey: "title") == "Dune Messiah")
        #expect(try book.value(forKey: "price") == .double(19.5))
        #expect(try book.value(forKey: "pages") == .integer(256))
        #expect(try book.value(forKey: "published") == .date(Date(timeIntervalSince1970: -6_739_200)))
        #expect(try book.value(forKey: "inPrint") == .bool(true))
        #expect(try book.value(forKey: "isbn") == "978-0")
        #expect(try book.value(forKey: "id") == .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!))
        #expect(try book.value(forKey: "cover") == .data(Data([0x89, 0x50, 0x4e, 0x47])))
        #expect(try book.value(forKey: "amount") == .decimal(Decimal(string: "12.30")!))
        #expect(try book.value(forKey: "site") == .uri(URL(string: "https://example.org/dm")!))
        try s.run(#"set Book/t1 published=1969-10-15T08:30:00.5Z isbn="nil" pages=nil"#)
        #expect(try book.value(forKey: "published") == .date(Date(timeIntervalSince1970: -6_739_200 + 30_600.5)))
        #expect(try book.value(forKey: "isbn") == "nil")
        #expect(try book.value(forKey: "pages") == nil)
    }

    @Test func valuesThatDoNotFitSayWhy() throws {
        let s = try Session()
        let cases: [(String, String)] = [
            ("insert Book pages=70000", "Book.pages is Integer 16; 70000 is outside -32768…32767"),
            ("insert Book price=cheap", "Book.price is Double; cheap is not a number"),
            ("insert Book inPrint=maybe", "Book.inPrint is Boolean; maybe is not true or false"),
            ("insert Book published=yesterday", "Book.published is Date; yesterday is not a date (2020-01-01 or 2020-01-01T10:30:00Z)"),
            // Never stored as another value: February 30th is not March 1st, 10^20 not a capped integer.
            ("insert Book published=2024-02-30", "Book.published is Date; 2024-02-30 is not a date: day 30 is not 01–29 (2024-02 has 29 days)"),
            ("insert Book published=2024-02-01T25:61:61Z", "Book.published is Date; 2024-02-01T25:61:61Z is not a date: hour 25 is not 00–23"),
            ("insert Book pages=99999999999999999999", "Book.pages is Integer 16; 99999999999999999999 is outside -32768…32767"),
            ("insert Book price=1e400", "Book.price is Double; 1e400 is not a number within ±1.7976931348623157e+308 (the range of Double)"),
            ("insert Book price=nan", "Book.price is Double; nan is not a number SQLite can store (it stores NaN as NULL)"),
            ("insert Book cover=PNG", "Book.cover is Binary; PNG is not hex bytes (0x89504e47)"),
            ("insert Book colour=red", "Book has no attribute colour; its attributes: title, price, pages, published, inPrint, isbn, id, cover, amount, site"),
            ("insert Book shelf=Shelf/p1", "Book.shelf is a relationship; use link/unlink"),
            (#"insert Book title="Dune"x"#, "title: put a space after the closing quote"),
            (#"insert Book title="Dune"#, #"unterminated quote in: Book title="Dune"#),
            ("insert Book title=", #"title= has no value (use title=nil to clear it, title="" for empty text)"#),
            ("insert Book Dune", "expected key=value, not Dune"),
            ("insert Novel", "no entity named Novel; entities: Book, Shelf"),
        ]
        for (line, message) in cases {
            #expect(s.failure(line)?.message == message, "\(line)")
        }
        // A refused insert leaves nothing behind.
        #expect(try !s.shell.requireContext().hasChanges)
    }

    @Test func writesNeedWrite() throws {
        let s = try Session(write: false)
        for line in ["insert Book", "set Book/p1 price=20", "delete Book/p1", "link Book/p1.shelf Shelf/p1", "save"] {
            #expect(s.failure(line)?.message.hasSuffix("changes data; open the store with --write to allow it") == true, "\(line)")
        }
        try s.run("validate")
        try s.run("rollback")
        #expect(s.output == "nothing to roll back\n")
    }

    @Test func saveFailurePrintsOneRowPerFailureAndKeepsTheChanges() throws {
        let s = try Session()
        try s.run("insert Book price=5", "set Book/p1 price=7")
        let bytes = [s.path, s.path + "-wal"].map { FileManager.default.contents(atPath: $0) }
        let failure = try #require(s.failure("save"))
        #expect(failure.exitCode == ExitStatus.validationFailures)
        #expect(failure.message == """
            save failed (1560): 3 validation errors; nothing was written and the changes are still pending (fix them and save, or rollback)
              Book/t1: title has no value, but it is required
              Book/t1: price 5 is below the minimum 15
              Book/p1: price 7 is below the minimum 15
            """)
        #expect(s.output == """
            +---------+--------+-------+-------+------------+------+
            | object  | entity | key   | value | rule       | code |
            +---------+--------+-------+-------+------------+------+
            | Book/t1 | Book   | title |       | required   | 1570 |
            | Book/t1 | Book   | price | 5     | minimum 15 | 1620 |
            | Book/p1 | Book   | price | 7     | minimum 15 | 1620 |
            +---------+--------+-------+-------+------------+------+

            """)
        #expect([s.path, s.path + "-wal"].map { FileManager.default.contents(atPath: $0) } == bytes)
        try s.run("set Book/t1 title=Children price=15", "set Book/p1 price=15")
        #expect(try s.run("save") == "saved: 1 inserted, 1 updated, 0 deleted\n")
    }

    @Test func deleteAnnouncesDenyAndCascade() throws {
        let s = try Session()
        #expect(try s.run("delete Shelf/p1") == "deleted Shelf/p1\n")
        #expect(s.diagnostics == "note: Shelf/p1: cannot be deleted while books still holds Book/p1 (delete rule Deny); the save will fail until that changes\n")
        #expect(s.failure("save")?.message.hasPrefix("save failed (1600)") == true)
        try s.run("rollback")
        #expect(s.output == "rolled back: 0 inserted, 0 updated, 1 deleted\n")
        #expect(s.failure("set Shelf/p9 name=x")?.message == "no object Shelf/p9 in the store")
        try s.run("delete Book/p1")
        #expect(s.failure("set Book/p1 title=x")?.message == "no object Book/p1 (it was deleted; save or rollback first) in the store")
    }

    @Test func linkAndUnlinkKeepInversesAndCheckTheirOperands() throws {
        let s = try Session()
        try s.run("insert Shelf name=History", "link Book/p1.shelf Shelf/t1")
        let context = try s.shell.requireContext()
        #expect(try context.object(named: "Shelf/t1").objects(forKey: "books").map(\.objectID.description) == ["Book/p1"])
        #expect(try context.object(named: "Shelf/p1").objects(forKey: "books").isEmpty)
        #expect(s.failure("unlink Book/p1.shelf Shelf/p1")?.message == "Book/p1.shelf does not point at Shelf/p1")
        #expect(try s.run("unlink Shelf/t1.books Book/p1") == "unlinked Shelf/t1.books ↛ Book/p1\n")
        #expect(try context.object(named: "Book/p1").object(forKey: "shelf") == nil)
        #expect(s.failure("link Book/p1.author Shelf/p1")?.message == "Book has no relationship author; its relationships: shelf")
        #expect(s.failure("link Book/p1 Shelf/p1")?.message == "expected ENTITY/KEY.relationship (Item/p1.unit), not Book/p1")
        #expect(s.failure("link Book/p1.shelf Book/p1")?.message == "Book.shelf holds Shelf objects, not Book")
    }

    @Test func validateStreamsFailuresAndExitsWithThree() throws {
        let s = try Session()
        let raw = try Connection(path: s.path, mode: .readWrite)
        try raw.execute("UPDATE ZBOOK SET ZPRICE = 3, ZTITLE = NULL")
        #expect(try s.run("validate Shelf") == """
            +--------+--------+-----+-------+------+------+
            | object | entity | key | value | rule | code |
            +--------+--------+-----+-------+------+------+
            +--------+--------+-----+-------+------+------+

            """)
        #expect(s.diagnostics.hasPrefix("validate: 0 failures in 1 object ("))
        let failure = try #require(s.failure("validate Book where price < 10"))
        #expect(failure.exitCode == ExitStatus.validationFailures)
        #expect(failure.message.hasPrefix("validate: 2 failures in 1 object ("))
        #expect(s.output.contains("| Book/p1 | Book   | title |       | required   | 1570 |"))
        #expect(s.output.contains("| Book/p1 | Book   | price | 3     | minimum 15 | 1620 |"))
        #expect(s.failure("validate Book where price <")?.message.hasPrefix("validate: ") == true)
        #expect(s.failure("validate Book price < 10")?.message == "usage: validate [ENTITY] [where PREDICATE]")
        #expect(s.failure("validate where title == nil")?.exitCode == ExitStatus.validationFailures)
    }

    @Test func helpListsTheNewCommandsWithExamples() throws {
        let s = try Session()
        for name in ["insert", "set", "delete", "link", "unlink", "save", "rollback", "validate"] {
            let text = try s.run(".help \(name)")
            #expect(text.hasPrefix("usage: \(name)"), "\(name)")
            #expect(text.contains("example: \(name)"), "\(name)")
        }
    }
}
