import Foundation
import GraphStore
import Testing

@testable import GraphStoreShell
import TestScratch

/// A fetch or `.rows` of a parent entity shows what its sub-entities add: on the
/// CoreDataPlus corpus store, `LuxuryCar.isLimitedEdition` under `Car`.
@Suite("Sub-entities' own attributes in a parent's rows")
struct SubentityColumnsTests {
    static var sampleModelStore: String? {
        let path = ShellFixtures.root.deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/stores/alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite").path
        if FileManager.default.fileExists(atPath: path) { return path }
        return nil
    }

    func shell() throws -> CapturedShell? {
        guard let source = Self.sampleModelStore else {
            #expect(ProcessInfo.processInfo.environment["GRAPHSTORE_REQUIRE_CORPUS"] != "1", "the corpus is required")
            return nil
        }
        return try CapturedShell(store: try BrokenStores.copy(source))
    }

    @Test func tableAndCSVHaveAColumnForEachEmptyWhereAbsent() throws {
        guard let shell = try shell() else { return }
        shell.shell.settings.mode = .csv
        #expect(try shell.run("fetch Car where numberPlate IN {'170', '202', '302'} sort numberPlate") == """
            object,maker,markedForDeletionAsOf,model,numberPlate,isLimitedEdition,owner
            Car/p1,FIAT,,Panda,170,,Person/p17
            SportCar/p32,Maserati,,GranTurismo MC,202,,Person/p15
            LuxuryCar/p53,Maserati,,GranTurismo MC,302,false,Person/p11

            """)
        let rows = try shell.run(".rows Car")
        #expect(rows.hasPrefix("Z_PK,Z_ENT,Z_OPT,ZMAKER,ZMARKEDFORDELETIONASOF,ZMODEL,ZNUMBERPLATE,ZOWNER,ZISLIMITEDEDITION\n"))
        #expect(rows.contains("\n1,1,1,FIAT,,Panda,170,17,\n"))
        #expect(rows.contains("\n87,3,1,BMW,,M6 Coupe,300,9,true\n"))
    }

    @Test func recordModesShowEachObjectsOwnAttributes() throws {
        guard let shell = try shell() else { return }
        shell.shell.settings.mode = .jsonl
        let lines = try shell.run("fetch Car where numberPlate IN {'170', '302'} sort numberPlate").split(separator: "\n")
        #expect(lines.count == 2)
        #expect(!lines[0].contains("isLimitedEdition"))
        #expect(lines[1].contains("\"isLimitedEdition\":false"))
        shell.shell.settings.mode = .line
        let records = try shell.run("fetch Car where numberPlate IN {'170', '302'} sort numberPlate")
        #expect(records.components(separatedBy: "isLimitedEdition = ").count == 2)
    }
}
