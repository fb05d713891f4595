import Foundation
import Testing
@testable import GraphStore

/// Mapping models (`.xcmappingmodel`) read from the corpus and from damaged files: names,
/// types, filters, policies, user info and value expressions as Xcode's compiler makes
/// them, snapshots compared with the app's versions, every malformation a named error.
@Suite struct MappingModelFileTests {
    /// Every mapping model of the corpus, by its path under `models/`.
    static func corpusMappingModels(_ corpus: URL) -> [String] {
        let models = corpus.appendingPathComponent("models").path
        let found = FileManager.default.enumerator(atPath: models)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".xcmappingmodel") }.sorted()
    }

    /// The bundle a snapshot path names (`…/App.xcdatamodeld/App 2.xcdatamodel`): the one
    /// nearest the mapping model, looking in its folder, then the folders above it up to
    /// the repository's.
    static func bundle(for modelPath: String, mappingModel: String, repository: String) -> String? {
        let components = modelPath.split(separator: "/").map(String.init)
        guard components.count >= 2, let name = components.dropLast().last, name.hasSuffix(".xcdatamodeld") else { return nil }
        var folder = (mappingModel as NSString).deletingLastPathComponent
        while folder.hasPrefix(repository) {
            let found = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            if let match = found.first(where: { ($0 as NSString).lastPathComponent == name }) { return folder + "/" + match }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    @Test func everyCorpusMappingModelIsReadAndFitsItsVersions() throws {
        guard let corpus = try Fixtures.requireCorpus("everyCorpusMappingModelIsReadAndFitsItsVersions") else { return }
        let files = Self.corpusMappingModels(corpus)
        #expect(files.count == 17)
        var mappings = 0
        var fitting: [String] = []
        var stale: [String: [String]] = [:]
        for file in files {
            let path = corpus.appendingPathComponent("models/" + file).path
            let model = try MappingModelFile(path: path).mappingModel
            mappings += model.entityMappings.count
            #expect(model.sourceModel != nil && model.destinationModel != nil, "\(file)")
            let repository = corpus.appendingPathComponent("models/" + file.split(separator: "/")[0]).path
            guard let source = model.sourceModelPath, let bundle = Self.bundle(for: source, mappingModel: path, repository: repository) else { continue }
            let fit = MappingModelFit(mapping: model, versions: try ModelVersions(path: bundle))
            if fit.fits { fitting.append(file) } else { stale[file] = (fit.source?.differences ?? []).map(\.description) + (fit.destination?.differences ?? []).map(\.description) }
        }
        // 42: kodeco's v3→v4 file also holds a mapping deleted in Xcode, which its mapping
        // model no longer lists.
        #expect(mappings == 42)
        // Every mapping model fits both its versions, but one: Mioke's v1 gained a
        // relationship after its mapping model was made.
        #expect(fitting.count == 16, "\(fitting)")
        #expect(stale == ["Mioke__CoreDataMigrationHelper/CoreDataTest/v1_to_v2.xcmappingmodel": [
            "relationship Chat.lastMessage: in this version, not in the mapping model's source snapshot",
            "relationship Message.lastMessageOf: in this version, not in the mapping model's source snapshot",
        ]])
    }

    /// Every value expression the corpus's files hold, as format strings; names, types,
    /// policies, filters and user info.
    @Test func expressionsNamesAndTypesAreAsXcodeCompilesThem() throws {
        guard let corpus = try Fixtures.requireCorpus("expressionsNamesAndTypesAreAsXcodeCompilesThem") else { return }
        var written: Set<String> = []
        for file in Self.corpusMappingModels(corpus) {
            let model = try MappingModelFile(path: corpus.appendingPathComponent("models/" + file).path).mappingModel
            for mapping in model.entityMappings {
                for property in mapping.attributeMappings + mapping.relationshipMappings {
                    if let expression = property.valueExpression { written.insert("\(mapping.name).\(property.name) = \(expression)") }
                }
            }
        }
        #expect(written == [
            "MeasurementToAmount.xyz = $source.abc", "AmountToUnit.name = $source.xyz", "PostToPost.hexColor = $source.color",
            #"CarToCar.previousOwners = FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#,
            #"LuxuryCarToLuxuryCar.previousOwners = FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#,
            #"SportCarToSportCar.previousOwners = FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#,
            #"PersonToPerson.previousCars = FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#,
            "RecipeToCuisine.name = $source.cuisine",
            #"ChefToChef.firstName = FUNCTION(CAST("MigrationFunctions", "Class"), "getFirstName:", $source.name)"#,
            #"ChefToChef.lastName = FUNCTION(CAST("MigrationFunctions", "Class"), "getLastName:", $source.name)"#,
        ], "\(written.sorted())")

        let alemar = try MappingModelFile(path: corpus.appendingPathComponent("models/alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel").path).mappingModel
        #expect(alemar.entityMappings.map(\.name) == ["CarToCar", "LuxuryCarToLuxuryCar", "PersonToPerson", "SportCarToSportCar", "Maker"])
        #expect(alemar.entityMappings.map(\.kind) == [.custom, .custom, .copy, .custom, .add])
        #expect(alemar.entityMappings[0].policyClassName == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        #expect(alemar.entityMappings[0].sourceExpression == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)"#)
        #expect(alemar.entityMappings[4].sourceExpression == nil)
        // Generated as the compiled V2toV3.cdm has them.
        let car = alemar.entityMappings[0]
        func generated(_ mapping: MappingModel.EntityMapping, _ name: String) -> String? {
            let property = (mapping.attributeMappings + mapping.relationshipMappings).first { $0.name == name }
            return property.flatMap { alemar.valueExpression(of: $0, in: mapping).expression }
        }
        #expect(generated(car, "model") == "$source.model")
        #expect(generated(car, "owner") == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)"#)
        #expect(generated(car, "createdBy") == nil)
        #expect(generated(alemar.entityMappings[1], "numberPlate") == "$source.numberPlate", "an inherited attribute")
        #expect(generated(alemar.entityMappings[2], "cars") == #"FUNCTION($manager, "destinationInstancesForSourceRelationshipNamed:sourceInstances:", "cars", $source.cars)"#)
        #expect(generated(alemar.entityMappings[4], "name") == nil)

        // A filter written with Xcode's swapped \u escape; user info; an old file's explicit types.
        let mioke = try MappingModelFile(path: corpus.appendingPathComponent("models/Mioke__CoreDataMigrationHelper/CoreDataTest/v1_to_v2.xcmappingmodel").path).mappingModel
        #expect(mioke.entityMapping(named: "MessageToMessage")?.sourceFilter == "messageID < 10000")
        let jdspoone = try MappingModelFile(path: corpus.appendingPathComponent("models/jdspoone__CoreDataMigrationExample/CoreDataMigration/v1.1-to-v1.2.xcmappingmodel").path).mappingModel
        #expect(jdspoone.entityMappings.contains { $0.userInfo == ["sourceVersion": "v1.1"] && $0.policyClassName == "CoreDataMigration.NoteToNotePolicy" })
        let kodeco = try MappingModelFile(path: corpus.appendingPathComponent("models/kodecocodes__cdt-materials/06-versioning-and-migration/projects/final/UnCloudNotes/UnCloudNotesMappingModel_v3_to_v4.xcmappingmodel").path).mappingModel
        #expect(kodeco.entityMappings.map(\.name) == ["NoteToNote", "AttachmentToImageAttachment"])
        let apple = try MappingModelFile(path: corpus.appendingPathComponent("models/fruitsamples__MigrationV2/Models/MappingModel.xcmappingmodel").path).mappingModel
        #expect(apple.entityMappings.map(\.kind).contains(.transform) && apple.entityMapping(named: "RecipeToCuisine")?.kind == .custom)
    }

    // MARK: - Damaged files

    static func write(_ text: String) throws -> String {
        let folder = try Fixtures.temporaryDirectory().appendingPathComponent("Broken.xcmappingmodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("xcmapping.xml"))
        return folder.path
    }

    static func document(_ objects: String) -> String {
        #"<?xml version="1.0" standalone="yes"?><!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd"><database>"#
            + #"<object type="XDDEVMAPPINGMODEL" id="z100"><relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z101"></relationship></object>"#
            + objects + "</database>"
    }

    @Test func damagedFilesAreNamedErrors() throws {
        #expect(throws: MappingModelError.fileNotFound(path: "/nowhere.xcmappingmodel")) { try MappingModelFile(path: "/nowhere.xcmappingmodel") }
        let notXML = try Self.write("not xml at all")
        #expect(throws: MappingModelError.self) { try MappingModelFile(path: notXML) }
        do {
            _ = try MappingModelFile(path: notXML)
        } catch {
            guard case .notAMappingModel(let path, _) = error else { throw error }
            #expect(path == notXML + "/xcmapping.xml")
        }
        let truncated = try Self.write(String(Self.document("").dropLast(5)))
        #expect(throws: MappingModelError.self) { try MappingModelFile(path: truncated) }
        let entities = try Self.write(#"<?xml version="1.0"?><!DOCTYPE database [<!ENTITY a "b">]><database/>"#)
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: entities) })".contains("declares entities"))
        let empty = try Self.write("<database></database>")
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: empty) })".hasSuffix("it holds 0 XDDEVMAPPINGMODEL objects, not one)"))
        let nameless = try Self.write(Self.document(#"<object type="XDDEVENTITYMAPPING" id="z101"><attribute name="mappingnumber" type="int16">1</attribute></object>"#))
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: nameless) })".hasSuffix("mapping z101: an entity mapping names neither a source nor a destination entity"))
        let badExpression = try Self.write(Self.document(#"""
            <object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="destinationname" type="string">Book</attribute>
            <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z102"></relationship></object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z102"><attribute name="name" type="string">title</attribute><attribute name="valueexpressiondata" type="binary">%%%</attribute></object>
            """#))
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: badExpression) })" == "\(badExpression)/xcmapping.xml: mapping BookToBook, property title: valueexpressiondata is not base64")
        let notArchive = try Self.write(Self.document(#"""
            <object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="destinationname" type="string">Book</attribute>
            <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z102"></relationship></object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z102"><attribute name="name" type="string">title</attribute><attribute name="valueexpressiondata" type="binary">aGVsbG8=</attribute></object>
            """#))
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: notArchive) })".contains("mapping BookToBook, property title: its value expression is not a keyed archive"))
        let unknownType = try Self.write(Self.document(#"<object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="mappingtypename" type="string">Teleport</attribute></object>"#))
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: unknownType) })".hasSuffix("mapping Book: unknown mapping type Teleport"))
        let missing = try Self.write(Self.document(#"<object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="destinationname" type="string">Book</attribute><relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="z109"></relationship></object>"#))
        #expect("\(try #require(throws: MappingModelError.self) { try MappingModelFile(path: missing) })".hasSuffix("mapping BookToBook: it refers to a missing relationship mapping z109"))
        // A well-formed file without snapshots reads; its one mapping is a copy.
        let plain = try Self.write(Self.document(#"<object type="XDDEVENTITYMAPPING" id="z101"><attribute name="sourcename" type="string">Book</attribute><attribute name="destinationname" type="string">Book</attribute></object>"#))
        let model = try MappingModelFile(path: plain).mappingModel
        #expect(model.entityMappings.map(\.name) == ["BookToBook"] && model.entityMappings[0].kind == .copy && model.sourceModel == nil)
    }
}
