import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

extension MigrationTests {
    /// The Songbook example's mapping model (`examples/Songbook/Mappings`), made with
    /// ``MappingModelFileWriter`` from the example's two versions: the file reads back as the
    /// mapping it was written from, and its snapshots fit the versions as an Xcode file's do.
    /// `GRAPHSTORE_RECORD_GOLDEN=1` writes it again (after a change to the example's models).
    struct ExampleMappingModelTests {
        static let songbook = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/Songbook")
        static var bundle: String { songbook.appendingPathComponent("Songbook.xcdatamodeld").path }
        static var file: String { songbook.appendingPathComponent("Mappings/Songbook1to2.xcmappingmodel").path }

        /// The entity split, as Xcode's editor makes it: SongToSong and SongToSongData from
        /// one source entity, properties by name, the two halves linked through the
        /// manager, SongToSongData with a filter and a Swift policy named with its module.
        static func mapping(_ versions: ModelVersions) throws -> MappingModel {
            let source = try #require(versions.version(named: "Songbook")).model
            let destination = try #require(versions.version(named: "Songbook 2")).model
            return MappingModel(
                sourceModel: source, destinationModel: destination,
                sourceModelPath: "Songbook.xcdatamodeld/Songbook.xcdatamodel", destinationModelPath: "Songbook.xcdatamodeld/Songbook 2.xcdatamodel",
                entityMappings: [
                    .init(name: "SongToSong", sourceEntity: "Song", destinationEntity: "Song",
                        attributeMappings: [.init(name: "artist"), .init(name: "title")],
                        relationshipMappings: [.init(name: "data", sourceKeyPath: "$source", sourceMappingName: "SongToSongData")]),
                    .init(name: "SongToSongData", sourceEntity: "Song", destinationEntity: "SongData",
                        policyClassName: "SongbookSimple.SongDataPolicy", sourceFilter: "filename != nil",
                        attributeMappings: [.init(name: "filename"), .init(name: "lyrics"), .init(name: "wordCount")],
                        relationshipMappings: [.init(name: "song", sourceKeyPath: "$source", sourceMappingName: "SongToSong")]),
                ])
        }

        @Test func theSongbookMappingModelReadsAsWrittenAndFitsItsVersions() throws {
            let versions = try ModelVersions(path: Self.bundle)
            let mapping = try Self.mapping(versions)
            if ProcessInfo.processInfo.environment["GRAPHSTORE_RECORD_GOLDEN"] == "1" {
                let xml = try MappingModelFileWriter.xml(mapping, uuid: try #require(UUID(uuidString: "0C3B5F9E-7A41-4E0B-9B8D-5D2F6A1C8E40")))
                try FileManager.default.createDirectory(atPath: Self.file, withIntermediateDirectories: true)
                try xml.write(toFile: Self.file + "/xcmapping.xml", atomically: true, encoding: .utf8)
            }
            let read = try MappingModelFile(path: Self.file).mappingModel
            #expect(read.entityMappings == mapping.entityMappings)
            #expect(read.sourceModelPath == mapping.sourceModelPath)
            #expect(read.sourceModel?.entityVersionHashes == mapping.sourceModel?.entityVersionHashes)
            #expect(read.destinationModel?.entityVersionHashes == mapping.destinationModel?.entityVersionHashes)
            #expect(MappingModelFit(mapping: read, versions: versions).fits(from: "Songbook", to: "Songbook 2"))
            // The values Xcode's compiler generates for what the file leaves unwritten.
            let data = try #require(read.entityMappings.last)
            #expect(read.valueExpression(of: data.attributeMappings[0], in: data).expression == "$source.filename")
            #expect(read.valueExpression(of: data.attributeMappings[2], in: data).expression == nil)
            #expect(read.valueExpression(of: data.relationshipMappings[0], in: data).expression
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "SongToSong", $source)"#)
        }

        /// The snapshot archive keeps everything a version hash covers, on models with
        /// inheritance, every relationship shape and renaming identifiers.
        @Test func aSnapshotReadsBackWithTheModelsVersionHashes() throws {
            let models = [try Fixtures.bookStoreModel(), try MappingModelCopyTests.v1(), try MappingModelCopyTests.v2(), try MappingModelRunTests.v2()]
            for model in models {
                let data = try LegacyModelArchive.encoded(model)
                var draft = try LegacyModelReader(path: "snapshot").read(data)
                let read = try draft.build()
                #expect(read.entityVersionHashes == model.entityVersionHashes)
                #expect(read.entities.map(\.name).sorted() == model.entities.map(\.name).sorted())
            }
        }
    }
}
