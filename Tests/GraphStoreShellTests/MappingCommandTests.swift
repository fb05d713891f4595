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
    /// `--mapping V2toV3` the plan runs the mapping model for the step, and refuses it by the
    /// policy class its mappings name, which the shell cannot have; a mapping model of
    /// another app is listed as fitting no version pair.
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
        #expect(refused == "migrate: Refused at step 1 (SampleModel2 → SampleModel3): V2toV3.xcmappingmodel: CarToCar: names the migration policy REPLACE_AT_RUNTIME.V2to3MakerPolicy, which is not registered (none is); a Swift policy is registered with MigrationPolicies, and the shell has none (134110); 3 refusals in all")
        let text = try shell.run("migrate --model \(bundle) --to SampleModel2 --plan --mapping \(mapping) --mapping \(other)")
        #expect(text.contains("  mapping models: V2toV3.xcmappingmodel (SampleModel2 → SampleModel3), Model2Model3.xcmappingmodel (fits no version pair: its source snapshot is no version of the bundle"), "\(text)")
        #expect(shell.failure(of: "migrate --model \(bundle) --plan --mapping /nowhere.xcmappingmodel") == "migrate: /nowhere.xcmappingmodel: no such mapping model")
    }

    /// wibosco's first store in a --write session: the one step to version 2 runs the
    /// project's Migration1to2, whose expression `$source.color` fills `hexColor` (Core
    /// Data's inference would drop `color` and start `hexColor` empty).
    @Test func migrateRunsTheMappingModelThatFitsAStep() throws {
        let corpus = ShellFixtures.root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        let source = corpus.appendingPathComponent(
            "stores/wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite").path
        guard FileManager.default.fileExists(atPath: source) else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            print("skipped migrateRunsTheMappingModelThatFitsAStep: ../shared/corpus is not present")
            return
        }
        let bundle = corpus.appendingPathComponent(
            "models/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
        let store = try BrokenStores.copy(source)
        let shell = try CapturedShell(store: store, write: true)
        let zero = shell.failure(of: "migrate --model \(bundle) --to 'CoreDataMigration_Example 2' --batch-size 0")
        #expect(zero == "migrate: --batch-size N must be a whole number, at least 1, not 0", "\(zero)")
        let text = try shell.run("migrate --model \(bundle) --to 'CoreDataMigration_Example 2' --batch-size 100")
        #expect(text.contains("1 step, by a mapping model that fits it"), "\(text)")
        #expect(text.contains("  PostToPost: Post (1001 objects) → Post\n    hexColor = $source.color\n    by name: date, postID\n"), "\(text)")
        #expect(text.contains("Migrated \(store) to CoreDataMigration_Example 2 in 1 step: 1001 objects."), "\(text)")
        let colored = try shell.run("fetch Post where hexColor == '6343E2' select postID")
        let empty = try shell.run("count Post where hexColor == nil")
        #expect(colored.contains("F3848AF4-92F0-45B1-9748-51782253BEC0") && empty.contains("| 0 "), "\(colored) \(empty)")
    }
}
