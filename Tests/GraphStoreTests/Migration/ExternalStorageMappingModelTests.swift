import Foundation
import Testing
@testable import GraphStore

extension MigrationTests.ExternalStorageMigrationTests {
    typealias Mapping = MappingModel.EntityMapping

    /// Item → Item and Scan → Scan, every property by name, `note` from `name` (or from
    /// `scanNote` for Scans).
    static func mappingModel(_ v1: ManagedObjectModel, _ v2: ManagedObjectModel, scanNote: String = "$source.name", scanPages: String? = nil) -> MappingModel {
        let property = { (name: String, expression: String?) in MappingModel.PropertyMapping(name: name, valueExpression: expression) }
        return MappingModel(sourceModel: v1, destinationModel: v2, entityMappings: [
            Mapping(name: "ItemToItem", sourceEntity: "Item", destinationEntity: "Item",
                attributeMappings: [property("name", nil), property("blob", nil), property("note", "$source.name")]),
            Mapping(name: "ScanToScan", sourceEntity: "Scan", destinationEntity: "Scan",
                attributeMappings: [property("name", nil), property("blob", nil), property("pages", scanPages), property("note", scanNote)]),
        ])
    }

    /// A manager whose one step v1 → v2 runs `mapping` object by object, as Core Data does.
    static func manager(_ mapping: MappingModel, _ v1: ManagedObjectModel, _ v2: ManagedObjectModel) -> MigrationManager {
        let versions = F.versions(v1, v2)
        return MigrationManager(versions: versions, mappingModels: [
            MappingModelCandidate(path: "/built/Items.xcmappingmodel", mappingModel: mapping, versions: versions)
        ])
    }

    static let objectByObject = MigrationManager.Options(mappingBatchSize: 1, copiesMappingModelsWithSQL: false)

    /// A mapping model's step writes each large value of an attribute that allows external
    /// storage to a new file, as a save does; the files only the old store named go once
    /// the new store is in place, and the backup keeps them and reads every value.
    @Test(arguments: [false, true]) func aMappingModelWritesLargeValuesToFilesAsASaveDoes(externalBefore: Bool) throws {
        let (v1, v2) = (try Self.model(external: externalBefore), try Self.model(external: true, note: true))
        let path = try Self.store(external: externalBefore)
        let before = try Self.references(path, model: v1)
        let outcome = try Self.manager(Self.mappingModel(v1, v2), v1, v2).migrate(storeAt: path, options: Self.objectByObject)
        #expect(outcome.plan.steps.first?.mappingModel != nil)
        #expect(try Self.read(path, model: v2) == Self.values)
        let references = try Self.references(path, model: v2)
        #expect(Set(references.keys) == ["large", "scan-large"])
        #expect(Set(references.values).isDisjoint(with: before.values))
        #expect(try StoreSupportFolder(storePath: path).externalDataFileNames() == references.values.sorted())
        #expect(try Self.anomalies(path, model: v2).isEmpty)
        let backup = try #require(outcome.backup)
        #expect(try Self.read(backup, model: v1) == Self.values)
        #expect(try StoreSupportFolder(storePath: backup).externalDataFileNames() == before.values.sorted())
        #expect(try Self.anomalies(backup, model: v1).isEmpty)
    }

    /// Through two mapping steps, the second reads the files the first wrote and brings the
    /// values back into the table; no file is left.
    @Test func aSecondMappingStepReadsTheFilesTheFirstWrote() throws {
        let (v1, v2, v3) = (try Self.model(external: false), try Self.model(external: true, note: true), try Self.model(external: false, note: true))
        let path = try Self.store(external: false)
        let versions = F.versions(v1, v2, v3)
        let manager = MigrationManager(versions: versions, mappingModels: [
            MappingModelCandidate(path: "/built/Items1.xcmappingmodel", mappingModel: Self.mappingModel(v1, v2), versions: versions),
            MappingModelCandidate(path: "/built/Items2.xcmappingmodel", mappingModel: Self.mappingModel(v2, v3), versions: versions),
        ])
        var options = Self.objectByObject
        options.keepsBackup = false
        let outcome = try manager.migrate(storeAt: path, route: .everyVersion, options: options)
        #expect(outcome.plan.steps.map(\.mappingModel) == ["/built/Items1.xcmappingmodel", "/built/Items2.xcmappingmodel"])
        #expect(try Self.read(path, model: v3) == Self.values)
        #expect(try StoreSupportFolder(storePath: path).externalDataFileNames().isEmpty)
        #expect(try Self.anomalies(path, model: v3).isEmpty)
    }

    /// A mapping model that fails after some batches wrote files: the store, its folder and
    /// the folder beside it are as they were.
    @Test func aFailureAfterFilesWereWrittenRemovesThemAll() throws {
        let (v1, v2) = (try Self.model(external: true), try Self.model(external: true, note: true))
        let path = try Self.store(external: true)
        let files = try StoreSupportFolder(storePath: path).externalDataFileNames()
        let before = Fixtures.fingerprint(path)
        // Scans come after items: by then the large item's new file is written and committed.
        let failing = Self.mappingModel(v1, v2, scanPages: "$source.name")
        let error = try #require(throws: MigrationRunError.self) {
            try Self.manager(failing, v1, v2).migrate(storeAt: path, options: Self.objectByObject)
        }
        guard case .mappingFailed(_, let mapping, _, _) = error else { Issue.record("\(error)"); return }
        #expect(mapping == "ScanToScan")
        #expect(Fixtures.fingerprint(path) == before)
        #expect(try StoreSupportFolder(storePath: path).externalDataFileNames() == files)
        let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(left.allSatisfy { !$0.contains("migrating") && !$0.contains("backup") }, "\(left)")
    }
}
