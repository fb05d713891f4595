import Foundation
import Testing
import TestScratch
@testable import GraphStore
@testable import GraphStoreShell

/// Library errors and notes say what is wrong in the library's terms; the REPL adds its own
/// remedy (a flag to pass) when it shows them, so its output reads as before. And `.schema`
/// shows the index names the store itself has.
@Suite struct LibraryHintTests {
    @Test func aReadOnlyStoreSaysSoAndTheREPLNamesItsFlag() {
        let error = StoreError.readOnly(path: "books.sqlite")
        #expect("\(error)" == "books.sqlite: opened read-only")
        #expect(ShellError.describing(error, interrupted: false).message == "books.sqlite: opened read-only; writing needs --write")
    }

    @Test func aLegacyModelFileGetsTheREPLsAdvice() throws {
        let folder = try ScratchDirectory.make("graphstore-shell").appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("bplist00 but not really".utf8).write(to: folder.appendingPathComponent("elements"))
        let shell = try CapturedShell()
        let error = try #require(throws: ShellError.self) { try shell.shell.open(path: ShellFixtures.exampleStore, modelPath: folder.path) }
        #expect(error.message.hasPrefix("\(folder.appendingPathComponent("elements").path): legacy Xcode 3 model (elements archive); open it in Xcode to convert it, or pass the store without --model ("))
        #expect(error.exitCode == ExitStatus.storeNotOpened)
    }

    @Test func staleEntityNamesGetTheREPLsAdvice() throws {
        let path = try ScratchDirectory.make("graphstore-shell").appendingPathComponent("stale.sqlite").path
        do {
            let store = try PersistentStore.create(at: path, model: try ModelFile.load(path: ShellFixtures.exampleModel))
            try store.checkpoint()
        }
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Genre' WHERE Z_NAME = 'BookCategory'")
        try connection.execute("ALTER TABLE ZBOOKCATEGORY RENAME TO ZGENRE")
        let store = try PersistentStore(path: path)
        guard case .inferred(let notes) = store.modelOrigin else {
            Issue.record("model from \(store.modelOrigin)")
            return
        }
        let stale = try #require(notes.first { $0.hasPrefix("entities Genre are named as Z_PRIMARYKEY records them") })
        #expect(stale.hasSuffix("lists BookCategory instead (a renaming migration)"))
        let shell = try CapturedShell(store: path)
        shell.shell.settings.mode = .csv
        #expect(try shell.run(".model").contains("lists BookCategory instead (a renaming migration); open with --model to use the current names"))
    }

    @Test func schemaShowsTheFetchIndexTheStoreHas() throws {
        let directory = try ScratchDirectory.make("graphstore-shell")
        let modelFolder = directory.appendingPathComponent("Indexed.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Book" representedClassName="Book" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <fetchIndex name="byTitle">
                        <fetchIndexElement property="title" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
            </model>
            """.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("indexed.sqlite").path
        let model = try ModelFile.load(path: modelFolder.path)
        let byTitle = try #require(model.entity(named: "Book")?.fetchIndexes.first)
        do {
            let store = try PersistentStore.create(at: path, model: model)
            let book = try store.mapping(for: "Book")
            let index = try #require(store.index(for: byTitle, of: book))
            #expect(index.name == "Z_Book_byTitle")
            #expect(index.sql == "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)")
            #expect(store.indexes(of: book).map(\.name) == ["Z_Book_byTitle"])
            #expect(store.table(of: book)?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTITLE"])
            try store.checkpoint()
        }
        let shell = try CapturedShell(store: path, model: modelFolder.path)
        shell.shell.settings.mode = .csv
        #expect(try shell.run(".schema Book").contains("Book,title,fetch index,,,Z_Book_byTitle,byTitle\n"))
        // A store that lost the index has none to show: the name is not made up from the model.
        try Connection(path: path, mode: .readWrite).execute("DROP INDEX Z_Book_byTitle")
        let dropped = try CapturedShell(store: path, model: modelFolder.path)
        dropped.shell.settings.mode = .csv
        #expect(try dropped.run(".schema Book").contains("Book,title,fetch index,,,,byTitle\n"))
        let reopened = try PersistentStore(path: path, model: model)
        #expect(reopened.index(for: byTitle, of: try reopened.mapping(for: "Book")) == nil)
    }
}
