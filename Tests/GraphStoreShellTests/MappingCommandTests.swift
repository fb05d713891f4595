import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreShell
import TestScratch

/// `.mapping FILE [--model BUNDLE]` and `migrate --mapping FILE`: a mapping model printed
/// as a reader needs it, and a plan that names the mapping model fitting a step (which
/// Core Data would run instead of inferring it) and refuses that step.
@Suite struct MappingCommandTests {
    static let minimal = #"""
        <?xml version="1.0" standalone="yes"?><!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd"><database>
        <object type="XDDEVMAPPINGMODEL" id="z100"><attribute name="sourcemodelpath" type="string">App/Shop.xcdatamodeld/Shop.xcdatamodel</attribute>
        <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z102 z101"></relationship></object>
        <object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="destinationname" type="string">Book</attribute>
        <attribute name="mappingnumber" type="int16">1</attribute><attribute name="sourcefilterpredicatestring" type="string">price \u3e00 10</attribute>
        <attribute name="migrationpolicyclassname" type="string">Shop.BookPolicy</attribute>
        <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z103"></relationship></object>
        <object type="XDDEVENTITYMAPPING" id="z102"><attribute name="destinationname" type="string">Shelf</attribute><attribute name="mappingnumber" type="int16">2</attribute></object>
        <object type="XDDEVATTRIBUTEMAPPING" id="z103"><attribute name="name" type="string">title</attribute></object>
        </database>
        """#

    static func minimalFile() throws -> String {
        let folder = try ScratchDirectory.make("mapping").appendingPathComponent("Shop1to2.xcmappingmodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(minimal.utf8).write(to: folder.appendingPathComponent("xcmapping.xml"))
        return folder.path
    }

    @Test func aMappingModelIsPrintedInTheOrderItRuns() throws {
        let shell = try CapturedShell()
        let file = try Self.minimalFile()
        #expect(try shell.run(".mapping \(file)") == """
            Mapping model \(file): 2 entity mappings
              source model: App/Shop.xcdatamodeld/Shop.xcdatamodel (no snapshot)
              destination model: no path recorded (no snapshot)

            1. BookToBook (custom; policy Shop.BookPolicy)
               from Book where price > 10 → Book
               source: FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Book", "price > 10"), $manager.sourceContext, NO)
               attributes:
                 title = generated from the source model, of which the file has no snapshot

            2. Shelf (add)
               no source objects (new entity) → Shelf

            """)
        #expect(shell.failure(of: ".mapping /nowhere.xcmappingmodel") == ".mapping: /nowhere.xcmappingmodel: no such mapping model")
        #expect(shell.failure(of: ".mapping") == "usage: .mapping FILE [--model BUNDLE]")
    }

    /// CoreDataPlus's V2 store, its bundle copied without the mapping model beside it:
    /// inferred, SampleModel2 → SampleModel3 can be migrated (as Core Data would infer it
    /// were the mapping model not in the app); with
    /// `--mapping V2toV3` the plan names the mapping model for the step and refuses it as
    /// not run yet; a mapping model of another app is listed as fitting no version pair.
    @Test func migrateNamesTheMappingModelThatFitsAStep() throws {
        let corpus = ShellFixtures.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let resources = corpus.appendingPathComponent("models/alemar11__CoreDataPlus/Tests/Resources/SampleModel").path
        let source = corpus.appendingPathComponent("stores/alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite").path
        guard FileManager.default.fileExists(atPath: source) else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            print("skipped migrateNamesTheMappingModelThatFitsAStep: ../shared/corpus is not present")
            return
        }
        let store = try BrokenStores.copy(source)
        // The bundle one folder down: the search for the project's mapping models starts at
        // the scratch folder of this test alone.
        let folder = (store as NSString).deletingLastPathComponent + "/App"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bundle = folder + "/SampleModel.xcdatamodeld"
        try FileManager.default.copyItem(atPath: resources + "/SampleModel.xcdatamodeld", toPath: bundle)
        let mapping = resources + "/MappingModels/V2toV3.xcmappingmodel"
        let shell = try CapturedShell(store: store)

        let described = try shell.run(".mapping \(mapping) --model \(bundle)")
        #expect(described.contains("; it is version SampleModel2 of \(bundle)") && described.contains("; it is version SampleModel3 of \(bundle)"))

        let inferred = try shell.run("migrate --model \(bundle) --to SampleModel3 --plan")
        #expect(inferred.contains("\nCan be migrated in 1 step"), "\(inferred)")
        #expect(!inferred.contains("V2toV3") && !inferred.contains("mapping model"))

        let other = corpus.appendingPathComponent("models/taitanxiami__GroceryDude/GroceryDude/Models/Model2Model3.xcmappingmodel").path
        let refused = shell.failure(of: "migrate --model \(bundle) --to SampleModel3 --plan --mapping \(mapping) --mapping \(other)")
        #expect(refused == "migrate: Refused at step 1 (SampleModel2 → SampleModel3): V2toV3.xcmappingmodel: fits this step (SampleModel2 → SampleModel3), and Core Data runs a mapping model that fits instead of inferring one; GraphStore reads mapping models (.mapping) but does not run them yet (134110)")
        let text = try shell.run("migrate --model \(bundle) --to SampleModel2 --plan --mapping \(mapping) --mapping \(other)")
        #expect(text.contains("  mapping models: V2toV3.xcmappingmodel (SampleModel2 → SampleModel3), Model2Model3.xcmappingmodel (fits no version pair: its source snapshot is no version of the bundle"), "\(text)")
        #expect(shell.failure(of: "migrate --model \(bundle) --plan --mapping /nowhere.xcmappingmodel") == "migrate: /nowhere.xcmappingmodel: no such mapping model")
    }
}
