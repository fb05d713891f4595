import Foundation
import Testing

@testable import GraphStore
@testable import GraphStoreShell

/// `.versions` and `migrate --plan` in the shell, on a copy of the BookStore example and
/// bundles written here: what they print, how they fail, and that they write nothing.
@Suite struct MigrationCommandTests {
    static let book = #"<attribute name="title" optional="YES" attributeType="String"/><attribute name="price" optional="YES" attributeType="Float" minValueString="15" defaultValueString="0.0"/><relationship name="category" optional="YES" maxCount="1" destinationEntity="BookCategory" inverseName="books" inverseEntity="BookCategory"/><relationship name="pages" optional="YES" toMany="YES" ordered="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>"#
    static let others = #"<entity name="BookCategory"><attribute name="name" optional="YES" attributeType="String"/><relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="category" inverseEntity="Book"/></entity><entity name="Page"><attribute name="text" optional="YES" attributeType="String"/><relationship name="book" optional="YES" maxCount="1" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/></entity>"#

    /// A bundle in the harness's directory, its versions' `Book` entities given (the rest of
    /// the BookStore model around them), the last version current.
    static func bundle(in harness: ShellHarness, _ books: [String]) throws -> String {
        let path = harness.directory + "/Shop.xcdatamodeld"
        for (index, book) in books.enumerated() {
            let folder = path + "/Shop\(index == 0 ? "" : " \(index + 1)").xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let text = #"<?xml version="1.0"?><model><entity name="Book">"# + book + "</entity>" + others + "</model>"
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        }
        let current = #"<?xml version="1.0"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Shop\#(books.count == 1 ? "" : " \(books.count)").xcdatamodel</string></dict></plist>"#
        try Data(current.utf8).write(to: URL(fileURLWithPath: path + "/.xccurrentversion"))
        return "Shop.xcdatamodeld"
    }

    static func failure(_ harness: ShellHarness, _ line: String) -> ShellError? {
        do {
            try harness.shell.runStatement(line)
            return nil
        } catch let error as ShellError {
            return error
        } catch {
            return ShellError("\(error)")
        }
    }

    @Test func aRefusedPlanFailsTheCommandWithItsReason() throws {
        let harness = try ShellHarness(write: true)
        let bundle = try Self.bundle(in: harness, [Self.book, Self.book.replacingOccurrences(of: #"name="title" optional="YES" attributeType="String""#, with: #"name="title" optional="YES" attributeType="Binary""#)])
        let store = harness.directory + "/examples/BookStore/BookStore.sqlite"
        let files = ["", "-wal", "-shm", "-journal"].map { store + $0 }
        let before = files.map { FileManager.default.contents(atPath: $0) }
        let error = try #require(Self.failure(harness, "migrate --model \(bundle) --plan"))
        #expect(error.exitCode == ExitStatus.commandFailed)
        #expect(error.message == "migrate: Refused at step 1 (Shop → Shop 2): Book.title: changes type from String to Binary; GraphStore's inference carries only changes between Boolean, integer and floating-point types, whose numbers SQLite converts: a mapping model is needed (134140)")
        #expect(harness.output.contains("  refused (134140): Book.title: changes type from String to Binary"))
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before, "migrate --plan wrote to the store")
    }

    @Test func planToAnotherVersionAndItsErrors() throws {
        let harness = try ShellHarness()
        let bundle = try Self.bundle(in: harness, [Self.book, Self.book + #"<attribute name="isbn" optional="YES" attributeType="String"/>"#])
        #expect(try harness.output(of: "migrate --model \(bundle) --to Shop --plan").contains("Nothing to migrate: the store is at Shop."))
        #expect(try harness.output(of: "migrate --plan --model \(bundle)").contains("    isbn: added (String), starts empty"))
        #expect(Self.failure(harness, "migrate --model \(bundle) --to Shop9 --plan")?.message.hasPrefix("migrate: \(harness.directory)/\(bundle): no version named Shop9; versions: Shop, Shop 2") == true)
        // Running needs --write (this harness is read-only); --model is required.
        #expect(Self.failure(harness, "migrate --model \(bundle)")?.message == "migrate: the store is open read-only; migrating writes it and needs --write (or use --dry-run)")
        #expect(Self.failure(harness, "migrate --plan")?.message == "usage: migrate --model BUNDLE [--to VERSION] [--walk] [--through VERSIONS] [--mapping FILE …] [--plan] [--dry-run] [--no-backup] [--batch-size N]")
        // A walk or named versions instead of the one inferred step.
        let three = try Self.bundle(in: harness, [Self.book, Self.book + #"<attribute name="isbn" optional="YES" attributeType="String"/>"#,
            Self.book + #"<attribute name="isbn" optional="YES" attributeType="String"/><attribute name="year" optional="YES" attributeType="Integer 16"/>"#])
        #expect(try harness.output(of: "migrate --model \(three) --plan").contains("1 step, inferred as Core Data's lightweight migration infers it, straight to the target (not through Shop 2;"))
        #expect(try harness.output(of: "migrate --model \(three) --plan --walk").contains("2 steps through every version, each inferred"))
        #expect(try harness.output(of: "migrate --model \(three) --plan --through 'Shop 2'").contains("Step 2: Shop 2 → Shop 3"))
        #expect(Self.failure(harness, "migrate --model \(three) --plan --walk --through 'Shop 2'")?.message == "migrate: --walk and --through cannot be combined: --walk visits every version")
        #expect(Self.failure(harness, "migrate --model \(three) --plan --through 'Shop 2,'")?.message.hasPrefix("migrate: --through needs version names separated by commas") == true)
        #expect(Self.failure(harness, "migrate --model \(three) --plan --through 'Shop 7'")?.message.contains("no version named Shop 7") == true)
        #expect(Self.failure(harness, "migrate --model nowhere.xcdatamodeld --plan")?.message.contains("no such model file") == true)
    }

    @Test func versionsListsEveryVersionAndWhatDiffers() throws {
        let harness = try ShellHarness()
        harness.shell.settings.mode = .csv
        let bundle = try Self.bundle(in: harness, [Self.book, Self.book + #"<attribute name="isbn" optional="YES" attributeType="String"/>"#])
        #expect(try harness.output(of: ".versions --model \(bundle)") == """
            version,fits,current,decided_by,agreeing_hashes,differences,note
            Shop,yes,false,version hashes,3/3,0,the store's version
            Shop 2,no,true,version hashes,2/3,2,entity Book: its version hash differs (a property or setting differs); …

            """)
        #expect(harness.diagnostics == ".versions: the store is Shop\n")
        #expect(try harness.output(of: ".versions --model \(bundle) 'Shop 2'") == """
            kind,entity,property,difference
            entity,Book,,its version hash differs (a property or setting differs)
            column,Book,,no column ZISBN in table ZBOOK

            """)
        #expect(Self.failure(harness, ".versions --model \(bundle) Shop7")?.message.hasSuffix("no version named Shop7; versions: Shop, Shop 2") == true)
    }

    /// A store none of whose versions fits: the nearest are named, and no plan is made.
    @Test func aStoreThatFitsNoVersion() throws {
        let harness = try ShellHarness()
        harness.shell.settings.mode = .csv
        let bundle = try Self.bundle(in: harness, [Self.book.replacingOccurrences(of: "Float", with: "Double")])
        let rows = try harness.output(of: ".versions --model \(bundle)")
        #expect(rows.contains("Shop,nearest,true,version hashes,2/3,1,entity Book: its version hash differs"), "\(rows)")
        #expect(harness.diagnostics.hasPrefix(".versions: no version fits the store; nearest: Shop"))
        let error = try #require(Self.failure(harness, "migrate --model \(bundle) --plan"))
        #expect(error.message.contains("no version of \(harness.directory)/\(bundle) fits the store (Core Data's 134130, missing source model); nearest: Shop"))
    }
}
