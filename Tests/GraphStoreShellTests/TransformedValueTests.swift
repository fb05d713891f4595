import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// Transformable values in the REPL: a keyed archive of Foundation's plist classes shown
/// decoded in every output mode (JSON text, JSON in the JSON modes), bytes that do not decode
/// shown as bytes, and `.transformed off` (and `.rows`) for the stored bytes.
@Suite("REPL Transformable values and .transformed")
struct TransformedValueTests {
    let shell: CapturedShell
    let archive: Data

    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                <attribute name="extra" optional="YES" attributeType="Transformable"/>
            </entity>
        </model>
        """

    init() throws {
        let directory = try ScratchDirectory.make("graphstore-transformed")
        let modelFolder = directory.appendingPathComponent("Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
        try Self.contents.write(to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("notes.sqlite").path
        let store = try PersistentStore.create(at: path, model: try ModelFile(path: modelFolder.path).model)
        let context = ManagedObjectContext(store: store)
        let note = try context.insert("Note")
        try note.set("title", "Dune")
        try note.setTransformedValue(["fiction", "classic"], forKey: "tags")
        try note.setTransformedValue(
            ["pages": 412, "read": true, "when": Date(timeIntervalSinceReferenceDate: 0), "cover": Data([0xCA, 0xFE])] as [String: Any], forKey: "extra")
        let other = try context.insert("Note")
        try other.set("title", "Junk")
        try other.setValue(.data(Data("junk".utf8)), forKey: "tags")
        try context.save()
        try store.checkpoint()
        archive = try #require(try note.get("tags", as: Data.self))
        shell = try CapturedShell(store: path, model: modelFolder.path)
    }

    @Test func decodedValuesInEveryMode() throws {
        #expect(try shell.run(lines: ".mode csv", "fetch Note select title, tags sort title") == """
            title,tags
            Dune,"[""fiction"", ""classic""]"
            Junk,0x6a756e6b

            """)
        #expect(try shell.run(lines: ".mode line", "fetch Note select extra where title == 'Dune'") == """
            extra = {"cover": "0xcafe", "pages": 412, "read": true, "when": "2001-01-01T00:00:00Z"}

            """)
        let json = try shell.run(lines: ".mode json", "fetch Note where title == 'Dune'")
        #expect(json.contains(#""tags":["fiction","classic"]"#))
        #expect(json.contains(#""extra":{"cover":"0xcafe","pages":412,"read":true,"when":"2001-01-01T00:00:00Z"}"#))
        let table = try shell.run(lines: ".mode table", ".tz +02:00", "fetch Note select title, tags, extra sort title")
        #expect(table.contains(#"| Dune  | ["fiction", "classic"] | {"cover": "<2 bytes: cafe>", "pages": 412, "read": true, "when": "2001-01-01T02:00:00+02:00"} |"#))
        #expect(table.contains("| Junk  | <4 bytes: 6a756e6b>"))
        let shown = try shell.run(lines: ".mode list", "show Note/p1")
        #expect(shown.contains(#"tags|Transformable|["fiction", "classic"]"#))
    }

    @Test func transformedOffShowsTheStoredBytes() throws {
        #expect(try shell.run(lines: ".mode csv", ".transformed off", "fetch Note select tags where title == 'Dune'") == "tags\n\(SeedValueText.hex(archive))\n")
        #expect(try shell.run(lines: ".settings").contains("transformed,off\n"))
        #expect(try shell.run(lines: ".transformed on", "fetch Note select tags where title == 'Dune'") == "tags\n\"[\"\"fiction\"\", \"\"classic\"\"]\"\n")
        // .rows shows the row as stored, whatever the setting.
        #expect(try shell.run(lines: ".rows Note 1").contains(SeedValueText.hex(archive)))
    }
}
