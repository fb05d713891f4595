import Foundation
import Testing

/// Stores made by hand and values kept outside the database, read by the built binary:
/// every command counts the same objects, values are read as Core Data reads them, and a
/// value that cannot be read is shown in its place with one warning per command.
@Suite struct StoredValueEndToEndTests {
    static let model = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path

    /// The example's ZBOOK rebuilt as a CSV import or a script makes it: no column types,
    /// keys and numbers stored as text (the recipe of the hand-made stores issue).
    static func handMadeStore() throws -> String {
        let path = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        try SQLiteScript.run(path, """
            CREATE TABLE ZB2 (ZPRICE, ZTITLE, ZCATEGORY, Z_PK, Z_ENT, Z_OPT);
            INSERT INTO ZB2 SELECT CAST(ZPRICE AS TEXT), ZTITLE, CAST(ZCATEGORY AS TEXT), CAST(Z_PK AS TEXT),
              CAST(Z_ENT AS TEXT), CAST(Z_OPT AS TEXT) FROM ZBOOK;
            DROP TABLE ZBOOK; ALTER TABLE ZB2 RENAME TO ZBOOK;
            """)
        return path
    }

    @Test func aHandMadeStoreCountsThreeBooksEverywhereAndReadsItsValues() throws {
        let path = try Self.handMadeStore()
        let result = try ScriptTests.run(["--mode", "csv", path, "-c", ".entities", "-c", "count Book", "-c", "fetch Book", "-c", ".rows Book", "-c", "validate"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            entity,table,z_ent,parent,count
            Book,ZBOOK,1,,3
            BookCategory,ZBOOKCATEGORY,2,,2
            Page,ZPAGE,3,,0
            count
            3
            object,price,title,category
            Book/p1,10,The first book,1
            Book/p2,15,The second book,1
            Book/p3,10,The third book,2
            Z_PK,Z_ENT,Z_OPT,ZPRICE,ZTITLE,ZCATEGORY
            1,1,1,10,The first book,1
            2,1,1,15,The second book,1
            3,1,1,10,The third book,2
            object,entity,key,value,rule,code

            """)
        // validate warns of what a tool that is not Core Data left: no types, text keys.
        #expect(result.stderr.contains("warning: ZBOOK.Z_PK: 3 values stored as text; Core Data writes integer for Z_PK\n"))
        #expect(result.stderr.contains("warning: ZBOOK.ZPRICE: declares no type; Core Data declares FLOAT for Book.price (Double)\n"))
        #expect(try ScriptTests.run(["--strict", path, "-c", "validate"]).status == 6)
        #expect(try ScriptTests.run(["--strict", GraphStoreBinary.exampleStore, "-c", "validate"]).status == 0)
        // With the app's model: price is a Float, category a to-one, read through the text keys.
        // A comparison in SQL has Core Data's shape (`t0.ZPRICE < ?`): on a column without
        // affinity, text never compares below a number, so no book matches, as in an app.
        let modelled = try ScriptTests.run(["--mode", "csv", "--model", Self.model, path, "-c", "count Book where price < 12", "-c", "fetch Book", "-c", "show Book/2.category"])
        #expect(modelled.status == 0, "\(modelled.stderr)")
        #expect(modelled.stdout == """
            count
            0
            object,price,title,category
            Book/p1,10,The first book,BookCategory/p1
            Book/p2,15,The second book,BookCategory/p1
            Book/p3,10,The third book,BookCategory/p2
            property,kind,value
            objectID,id,BookCategory/p1
            uri,id,x-coredata://37F57629-6D20-4B9F-98F9-C96E971ECA19/BookCategory/p1
            name,String,Fiction
            books,to-many,"2: Book/p1, Book/p2"

            """)
    }

    @Test func aValueThatCannotBeReadIsShownInPlaceWithOneWarning() throws {
        let path = try Self.handMadeStore()
        try SQLiteScript.run(path, "UPDATE ZBOOK SET ZPRICE = 'abc' WHERE Z_PK = '2'; UPDATE ZBOOK SET ZPRICE = 'n/a' WHERE Z_PK = '3';")
        let arguments = ["--model", Self.model, path, "-c", "fetch Book", "-c", "count Book"]
        let csv = try ScriptTests.run(["--csv"] + arguments)
        #expect(csv.status == 0)
        #expect(csv.stdout == """
            object,price,title,category
            Book/p1,10,The first book,BookCategory/p1
            Book/p2,"<text ""abc"", not Float>",The second book,BookCategory/p1
            Book/p3,"<text ""n/a"", not Float>",The third book,BookCategory/p2
            count
            3

            """)
        #expect(csv.stderr == "warning: 2 values could not be read and are shown in place (2 not readable as their types)\n")
        let strict = try ScriptTests.run(["--json", "--strict"] + arguments)
        #expect(strict.status == 6)
        #expect(strict.stdout.contains(#""price":{"unreadable": "text \"abc\"", "expected": "Float"},"title":"The second book""#))
        #expect(strict.stdout.contains(#"{"object":"Book/p2","uri":"x-coredata://"#))
        #expect(try ScriptTests.run(["--strict", "--model", Self.model, path, "-c", "fetch Book where price < 12"]).status == 0)
    }

    /// A copy of the corpus's Wire store 2-60-0 (which references external data files the
    /// corpus does not carry), or nil when the corpus is not there (an error under
    /// `GRAPHSTORE_REQUIRE_CORPUS=1`).
    static func wireStoreCopy() throws -> String? {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let source = corpus.appendingPathComponent("stores/wireapp__wire-ios-data-model/Tests/Resources/store2-60-0.wiredatabase").path
        guard FileManager.default.fileExists(atPath: source) else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            return nil
        }
        return try GraphStoreBinary.copy(source)
    }

    /// A Wire store of the corpus, whose rows reference a user's medium image in
    /// `.store2-60-0_SUPPORT/_EXTERNAL_DATA`: missing, then there.
    @Test func anExternalDataFileIsReadOrShownMissing() throws {
        guard let path = try Self.wireStoreCopy() else { return }
        let fetch = ["fetch User where name == 'Jacob Clone 1'"]
        let missing = try ScriptTests.run(["--line", path, "-c"] + fetch)
        #expect(missing.status == 0, "\(missing.stderr)")
        #expect(missing.stdout.contains("imageMediumData = <external 30084A1C-76CF-4976-8312-8E8EFCF6F510 missing>"))
        #expect(missing.stderr == "warning: 1 value could not be read and is shown in place (1 external data file missing)\n")
        let json = try ScriptTests.run(["--json", path, "-c"] + fetch)
        #expect(json.stdout.contains(#""imageMediumData":{"externalReference": "30084A1C-76CF-4976-8312-8E8EFCF6F510", "missing": true}"#))
        let rows = try ScriptTests.run(["--line", path, "-c", ".rows User 1"])
        #expect(rows.stdout.contains("ZIMAGEMEDIUMDATA = 0x02 30084A1C-76CF-4976-8312-8E8EFCF6F510"))
        #expect(rows.stderr.isEmpty)
        // Every User of the store is fetched, with one warning.
        let all = try ScriptTests.run(["--csv", "--strict", path, "-c", "count User", "-c", "fetch User"])
        #expect(all.status == 6)
        #expect(all.stdout.split(separator: "\n").count == 2 + 1 + 22)
        let folder = (path as NSString).deletingLastPathComponent + "/.store2-60-0_SUPPORT/_EXTERNAL_DATA"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("the image".utf8).write(to: URL(fileURLWithPath: folder + "/30084A1C-76CF-4976-8312-8E8EFCF6F510"))
        let present = try ScriptTests.run(["--line", "--strict", path, "-c"] + fetch)
        #expect(present.status == 0)
        #expect(present.stdout.contains("imageMediumData = 0x74686520696d616765"))
        #expect(present.stderr.isEmpty)
        // Through a symbolic link from elsewhere, the folder beside the real store is read.
        let elsewhere = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let link = (elsewhere as NSString).deletingLastPathComponent + "/linked.wiredatabase"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try ScriptTests.run(["--line", link, "-c"] + fetch).stdout.contains("imageMediumData = 0x74686520696d616765"))
    }

    /// The same store with its external data file replaced by a link to a secret, a FIFO, a
    /// device: a read-only session shows none of their contents and never waits; the value
    /// is shown in place saying why, and `validate` names the file.
    @Test func anExternalDataFileThatIsNoRegularFileIsNotRead() throws {
        guard let path = try Self.wireStoreCopy() else { return }
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory + "/.store2-60-0_SUPPORT/_EXTERNAL_DATA"
        let file = folder + "/30084A1C-76CF-4976-8312-8E8EFCF6F510"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let secret = directory + "/secret"
        try Data("root:the-secret".utf8).write(to: URL(fileURLWithPath: secret))
        let fetch = ["fetch User where name == 'Jacob Clone 1'"]
        for (make, why) in [
            ({ try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: secret) }, "is a symbolic link, which GraphStore does not follow"),
            ({ try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero") }, "is a symbolic link, which GraphStore does not follow"),
            ({ #expect(mkfifo(file, 0o600) == 0) }, "is a FIFO, not a regular file"),
            ({ try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false) }, "is a directory, not a regular file"),
        ] as [(() throws -> Void, String)] {
            try? FileManager.default.removeItem(atPath: file)
            try make()
            let shown = try ScriptTests.run(["--line", path, "-c"] + fetch)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("imageMediumData = <external 30084A1C-76CF-4976-8312-8E8EFCF6F510 \(why)>"), "\(shown.stdout)")
            #expect(!shown.stdout.contains("the-secret"))
            #expect(shown.stderr == "warning: 1 value could not be read and is shown in place (1 external data file not read)\n")
            let json = try ScriptTests.run(["--json", path, "-c"] + fetch)
            #expect(json.stdout.contains(#""imageMediumData":{"externalReference": "30084A1C-76CF-4976-8312-8E8EFCF6F510", "unreadable": "\#(why)"}"#))
            let validate = try ScriptTests.run([path, "-c", "validate"])
            #expect(validate.stderr.contains("external data file 30084A1C-76CF-4976-8312-8E8EFCF6F510 \(why), in "), "\(validate.stderr)")
            #expect(validate.stderr.contains("_SUPPORT/_EXTERNAL_DATA; the value is not read\n"), "\(validate.stderr)")
        }
    }
}
