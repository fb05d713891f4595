import Foundation
import Testing
import TestScratch

/// Building and checking a seed with the built binary: `--create`, `.open --create`,
/// `verify` (its exit statuses, `--json`, `--expect`, `graphstore verify …`).
@Suite struct SeedEndToEndTests {
    static let model = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld").path

    static func newPath(_ name: String = "seed.sqlite") throws -> String {
        try ScratchDirectory.make("seed-e2e").appendingPathComponent(name).path
    }

    @Test func createMakesAnEmptyStoreInCoreDatasLayout() throws {
        let path = try Self.newPath()
        let made = try ScriptTests.run(["--write", "--model", Self.model, "--create", path, "-c", "count Book"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("0"))
        let schema = try ScriptTests.run(["-list", "-noheader", path, "-c", "sql SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"])
        #expect(schema.stdout == "ZBOOK\nZBOOKCATEGORY\nZPAGE\nZ_METADATA\nZ_PRIMARYKEY\n")
        let keys = try ScriptTests.run(["-list", "-noheader", path, "-c", "sql SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY"])
        #expect(keys.stdout == "1|Book|0|0\n2|BookCategory|0|0\n3|Page|0|0\n")
        // A new store is fit to ship as it is.
        let verified = try ScriptTests.run(["verify", "--model", Self.model, path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test func createRefusesAnExistingFileAndNeedsWriteAndModel() throws {
        let path = try Self.newPath()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let refused = try ScriptTests.run(["--write", "--model", Self.model, "--create", path, "-c", ".quit"])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("already exists"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
        let noWrite = try ScriptTests.run(["--model", Self.model, "--create", try Self.newPath()])
        #expect(noWrite.status == 2)
        #expect(noWrite.stderr.contains("--create needs --write and --model"))
    }

    @Test func openCreateInTheREPL() throws {
        let path = try Self.newPath()
        let result = try ScriptTests.run(["--write", "-list"], input: ".open --create --model '\(Self.model)' '\(path)'\ninsert Book title='One' price=20\nsave\ncount Book\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("count\n1\n"), "\(result.stdout)")
    }

    @Test func verifyExitStatusesAndJSON() throws {
        // The example store has two books below the model's minimum price.
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let before = BrokenStores.bytes(of: store)
        let failing = try ScriptTests.run(["verify", "--json", "--model", Self.model, store])
        #expect(failing.status == 3)
        #expect(failing.stdout.contains(#"{"check":"validation.objects","result":"FAIL","found":2"#), "\(failing.stdout)")
        #expect(failing.stderr.contains("1 of 18 checks failed: validation.objects"))
        #expect(BrokenStores.bytes(of: store) == before)
        let missing = try ScriptTests.run(["verify", try Self.newPath("absent.sqlite")])
        #expect(missing.status == 4)
        let fixed = try BrokenStores.changed(store, sql: "UPDATE ZBOOK SET ZPRICE = 20")
        let passing = try ScriptTests.run(["--model", Self.model, fixed, "-c", "verify"])
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(passing.stderr == "verify: 18 checks, none failed\n")
    }

    @Test func verifyExpectations() throws {
        let store = try BrokenStores.changed(GraphStoreBinary.exampleStore, sql: "UPDATE ZBOOK SET ZPRICE = 20")
        let checks = try Self.newPath("release.checks")
        try "count Book >= 4\nexists BookCategory where name == \"Fiction\"\n".write(toFile: checks, atomically: true, encoding: .utf8)
        let result = try ScriptTests.run(["-list", "-noheader", "verify", "--expect", checks, store])
        #expect(result.status == 3)
        // found is the number of objects the line counted (it was 1 for any failure).
        #expect(result.stdout.contains("expect.1|FAIL|3|count Book >= 4 (3 objects)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("expect.2|ok|1|exists BookCategory where name == \"Fiction\" (1 object)\n"))
    }
}

/// `examples/BookStore/seeds/story.sh`, the chapter's whole seeding story, run with the built
/// binary: its output (both streams) must match `examples/BookStore/expected/seeds.out`.
@Suite struct SeedStoryExampleTests {
    @Test func theBookStoreSeedStory() throws {
        let script = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/seeds/story.sh").path
        let expected = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/expected/seeds.out").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sh \"$0\" 2>&1", script]
        var environment = ProcessInfo.processInfo.environment
        environment["GRAPHSTORE"] = GraphStoreBinary.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == (try String(contentsOfFile: expected, encoding: .utf8)))
    }
}

/// `diff --json`, `seed apply --dry-run` and `seed status` with the built binary.
@Suite struct SeedCommandEndToEndTests {
    @Test func diffAsJSONAndADryRunThatWritesNothing() throws {
        let model = SeedEndToEndTests.model
        let old = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let new = try BrokenStores.changed(old, name: "new.sqlite", sql: "UPDATE ZBOOK SET ZPRICE = 40 WHERE Z_PK = 2")
        let script = (new as NSString).deletingLastPathComponent + "/update-7.graphstore"
        let diff = try ScriptTests.run(["diff", "--json", "--model", model, old, new, "--key", "Book=title", "--key", "BookCategory=name", "--script", script])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains(#""change":"changed","entity":"Book""#), "\(diff.stdout)")
        #expect(diff.stdout.contains(#""property":"price","old":"#), "\(diff.stdout)")
        #expect(diff.stderr == "diff: 1 object differs\n")
        let before = BrokenStores.bytes(of: old)
        let dry = try ScriptTests.run(["--model", model, old, "-c", "seed apply --dry-run '\(script)'", "-c", "seed status"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("0 inserted, 1 updated, 0 linked, 0 deleted, 0 unchanged (dry run: nothing written)"), "\(dry.stdout)")
        #expect(dry.stdout.hasSuffix("seed version: none recorded\n"))
        #expect(BrokenStores.bytes(of: old) == before)
        let applied = try ScriptTests.run(["--write", "--model", model, old, "-c", "seed apply '\(script)'", "-c", "seed status"])
        #expect(applied.stdout.hasSuffix("seed version: update-7\n"), "\(applied.stdout)\(applied.stderr)")
        let after = try ScriptTests.run(["diff", "--model", model, old, new, "--key", "Book=title,BookCategory=name"])
        #expect(after.stderr == "diff: no differences\n")
    }

    /// The Recipes sample's store and model (corpus), and a second seed of it: two ingredients
    /// changed, one gone, and Recipe keyed by name.
    static func recipes() throws -> (model: String, old: String, new: String)? {
        let corpus = GraphStoreBinary.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let store = corpus.appendingPathComponent("stores/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite").path
        let model = corpus.appendingPathComponent("models/alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld").path
        guard FileManager.default.fileExists(atPath: store) else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            print("skipped recipes: ../shared/corpus is not present")
            return nil
        }
        let old = try GraphStoreBinary.copy(store)
        let new = try BrokenStores.changed(old, name: "Recipes-2.sqlite", sql: """
            UPDATE ZINGREDIENT SET ZAMOUNT = ZAMOUNT || ' (heaped)' WHERE Z_PK IN (1, 2);
            DELETE FROM ZINGREDIENT WHERE Z_PK = 3;
            """)
        return (model, old, new)
    }

    @Test func diffScriptRefusesWhatItCannotNameAndExitCodeSaysWhetherStoresDiffer() throws {
        guard let (model, old, new) = try Self.recipes() else { return }
        let folder = (new as NSString).deletingLastPathComponent
        let script = folder + "/update-2.graphstore"
        // Ingredient has no key here: the script would leave its changes out, so none is written.
        let refused = try ScriptTests.run(["diff", "--model", model, old, new, "--key", "Recipe=name,RecipeType=name", "--script", script])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("no script written: it would leave the stores different"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Ingredient: has no natural key"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: script))
        // With Ingredient named by its name and its recipe, the script is written and does it.
        let keys = ["--key", "Recipe=name,RecipeType=name,Ingredient=name+recipe,Image=recipe"]
        let differing = try ScriptTests.run(["diff", "--exit-code", "--model", model, old, new, "--script", script] + keys)
        #expect(differing.status == 1, "\(differing.stderr)")
        #expect(differing.stderr == "diff: 4 objects differ\n", "\(differing.stderr)")
        #expect(try String(contentsOfFile: script, encoding: .utf8).contains("# keys: Image=recipe,Ingredient=name+recipe,Recipe=name,RecipeType=name"))
        #expect(try ScriptTests.run(["diff", "--model", model, old, new] + keys).status == 0)
        let applied = try ScriptTests.run(["--write", "--model", model, old, "-c", "seed apply '\(script)'"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout.contains("0 inserted, 2 updated, 0 linked, 1 deleted"), "\(applied.stdout)")
        let same = try ScriptTests.run(["diff", "--exit-code", "--model", model, old, new] + keys)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stderr == "diff: no differences\n")
    }

    @Test func aSecondApplyAndASaveWithNothingToDoWriteNoByte() throws {
        let model = SeedEndToEndTests.model
        let old = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let new = try BrokenStores.changed(old, name: "new.sqlite", sql: "UPDATE ZBOOK SET ZPRICE = 40 WHERE Z_PK = 2")
        let script = (new as NSString).deletingLastPathComponent + "/update-2.graphstore"
        _ = try ScriptTests.run(["diff", "--model", model, old, new, "--key", "Book=title,BookCategory=name", "--script", script])
        let first = try ScriptTests.run(["--write", "--model", model, old, "-c", "seed apply '\(script)'"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = BrokenStores.bytes(of: old)
        let second = try ScriptTests.run(["--write", "--model", model, old, "-c", "seed apply '\(script)'", "-c", "save"])
        #expect(second.stdout.contains("0 inserted, 0 updated, 0 linked, 0 deleted, 1 unchanged"), "\(second.stdout)\(second.stderr)")
        #expect(BrokenStores.bytes(of: old) == before, "a run that changed nothing wrote \(BrokenStores.bytes(of: old).keys.sorted())")
    }

    @Test func aDeleteThatWouldCascadeToAUsersBookKeepsTheCategoryAndSaysSo() throws {
        let model = SeedEndToEndTests.model
        // The next seed drops Biography and its one book, The third book.
        let seed = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let next = try BrokenStores.changed(seed, name: "next.sqlite", sql: "DELETE FROM ZBOOK WHERE ZCATEGORY = 2; DELETE FROM ZBOOKCATEGORY WHERE Z_PK = 2")
        let script = (next as NSString).deletingLastPathComponent + "/update-2.graphstore"
        let made = try ScriptTests.run(["diff", "--model", model, seed, next, "--key", "Book=title,BookCategory=name", "--script", script])
        #expect(made.status == 0, "\(made.stderr)")
        // The user filed a book of their own under Biography.
        let user = try BrokenStores.changed(seed, name: "user.sqlite", sql: """
            INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPRICE, ZCATEGORY) VALUES (10, 1, 1, 'My memoir', 20, 2);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 10 WHERE Z_NAME = 'Book';
            """)
        let sentence = "BookCategory Biography is kept: deleting it would also delete Book My memoir (by a cascade rule), which the update does not delete"
        let dry = try ScriptTests.run(["--model", model, user, "-c", "seed apply --dry-run '\(script)'"])
        #expect(dry.stderr.contains(sentence), "\(dry.stderr)")
        #expect(dry.stdout.contains("1 deleted, 0 unchanged, 1 kept for objects the update does not delete (dry run: nothing written)"), "\(dry.stdout)")
        let applied = try ScriptTests.run(["--write", "--model", model, user, "-c", "seed apply '\(script)'", "-list", "-noheader", "-c", "fetch Book sort title"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stderr.contains(sentence))
        #expect(applied.stdout.contains("My memoir"), "\(applied.stdout)")
        #expect(!applied.stdout.contains("The third book"), "\(applied.stdout)")
    }

    @Test func aStoreTheToolMadeIsOneFileWhenItExits() throws {
        let folder = try ScratchDirectory.make("one-file")
        let path = folder.appendingPathComponent("seed.sqlite").path
        let categories = folder.appendingPathComponent("categories.csv").path
        try "name\nFiction\nBiography\n".write(toFile: categories, atomically: true, encoding: .utf8)
        let made = try ScriptTests.run(["--write", "--model", SeedEndToEndTests.model, "--create", path, "-c", "import BookCategory '\(categories)'"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["categories.csv", "seed.sqlite"])
        let update = folder.appendingPathComponent("update.graphstore").path
        try "# keys: BookCategory=name\ninsert BookCategory {\"name\": \"Poetry\"}\n".write(toFile: update, atomically: true, encoding: .utf8)
        let applied = try ScriptTests.run(["--write", "--model", SeedEndToEndTests.model, path, "-c", "seed apply '\(update)'"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["categories.csv", "seed.sqlite", "update.graphstore"])
    }

    @Test func exportNamesWhatItCannotWriteAndRefusesTheModelAndFolders() throws {
        let model = SeedEndToEndTests.model
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let folder = (store as NSString).deletingLastPathComponent
        let bare = try ScriptTests.run(["--model", model, store, "-c", "export Book '\(folder)/books.csv'"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stderr.contains("export: warning: Book.category is not written: BookCategory has no natural key to name its objects by (give --key BookCategory=ATTRIBUTE, or --ids to name them by object ID)"), "\(bare.stderr)")
        #expect(try ScriptTests.run(["--strict", "--model", model, store, "-c", "export Book '\(folder)/books.csv'"]).status == 6)
        let keyed = try ScriptTests.run(["--model", model, store, "-c", "export Book '\(folder)/books.csv' --key BookCategory=name"])
        #expect(!keyed.stderr.contains("category"), "\(keyed.stderr)")
        // The model in use, a copy of the example's: neither the bundle nor a file in it is written.
        let bundle = (try ScratchDirectory.make("model")).appendingPathComponent("BookStore.xcdatamodeld").path
        try FileManager.default.copyItem(atPath: model, toPath: bundle)
        let contents = bundle + "/BookStore.xcdatamodel/contents"
        let modelBytes = try Data(contentsOf: URL(fileURLWithPath: contents))
        for target in [contents, bundle, bundle + "/books.csv"] {
            let refused = try ScriptTests.run(["--model", bundle, store, "-c", "export Book '\(target)'"])
            #expect(refused.status == 1, "\(target)")
            #expect(refused.stderr.contains("it is the model file in use, \(bundle)"), "\(refused.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: contents)) == modelBytes)
        #expect(!FileManager.default.fileExists(atPath: bundle + "/books.csv"))
        let toFolder = try ScriptTests.run(["--model", model, store, "-c", "export Book '\(folder)'"])
        #expect(toFolder.stderr.contains("is a folder; give the name of a file to write, such as \(folder)/Book.csv"), "\(toFolder.stderr)")
        #expect(!toFolder.stderr.contains("NSCocoaErrorDomain"))
    }

    /// `export --ids` writes pages (no natural key) with their object IDs, and `import --ids`
    /// gives a new store's pages the same IDs; into a store that has them it is refused.
    @Test func idsCarryObjectsWithoutAKeyIntoANewStore() throws {
        let model = SeedEndToEndTests.model
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let folder = (store as NSString).deletingLastPathComponent
        let written = try ScriptTests.run([
            "--write", "--model", model, store, "-c", #"insert Page text="first""#, "-c", #"insert Page text="second""#, "-c", "save",
            "-c", "export --ids Page '\(folder)/pages.csv'",
        ])
        #expect(written.status == 0, "\(written.stderr)")
        let pages = try String(contentsOfFile: folder + "/pages.csv", encoding: .utf8)
        #expect(pages.hasPrefix("@id,text,book\np1,first,\np2,second,\n"), "\(pages)")
        let target = try SeedEndToEndTests.newPath()
        let imported = try ScriptTests.run(["--write", "--model", model, "--create", target, "-c", "import --ids Page '\(folder)/pages.csv'", "-c", "show Page/p2"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("second"), "\(imported.stdout)")
        let again = try ScriptTests.run(["--write", "--model", model, target, "-c", "import --ids Page '\(folder)/pages.csv'"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("pages.csv:2: Page.@id: Page/p1 cannot be given that object ID: the store already has Page/p1"), "\(again.stderr)")
    }

    /// `import E1 F1 E2 F2` loads both files in one transaction: categories name books of the
    /// second file; a bad record in the second keeps nothing of the first.
    @Test func oneImportLoadsFilesThatNameEachOther() throws {
        let model = SeedEndToEndTests.model
        let folder = try ScratchDirectory.make("import-files").path
        try "name,books\nFiction,Dune|Emma\n".write(toFile: folder + "/categories.csv", atomically: true, encoding: .utf8)
        try "title,price\nDune,20\nEmma,22\n".write(toFile: folder + "/books.csv", atomically: true, encoding: .utf8)
        try "title,price\nDune,20\nEmma,2\n".write(toFile: folder + "/cheap.csv", atomically: true, encoding: .utf8)
        let target = try SeedEndToEndTests.newPath()
        let keys = "--key BookCategory=name,Book=title"
        let refused = try ScriptTests.run(["--write", "--model", model, "--create", target, "-c", "import \(keys) BookCategory '\(folder)/categories.csv' Book '\(folder)/cheap.csv'"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cheap.csv:3: Book.price"), "\(refused.stderr)")
        let imported = try ScriptTests.run([
            "--write", "--model", model, target, "-c", "import \(keys) BookCategory '\(folder)/categories.csv' Book '\(folder)/books.csv'",
            "-c", "fetch Book select title, category.name",
        ])
        // Had the refused import kept Fiction, this one would be refused as loading it twice.
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 1 BookCategory object from \(folder)/categories.csv\nimported 2 Book objects from \(folder)/books.csv\n"), "\(imported.stdout)")
        #expect(imported.stdout.contains("| Emma  | Fiction       |"), "\(imported.stdout)")
    }
}
