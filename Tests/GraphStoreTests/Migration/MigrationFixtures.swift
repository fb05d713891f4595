import Foundation
@testable import GraphStore

/// Models and stores for the migration tests.
enum MigrationFixtures {
    /// A copy of an attribute with a renaming identifier.
    static func renamed(_ attribute: AttributeDescription, from old: String) -> AttributeDescription {
        var copy = attribute
        copy.renamingIdentifier = old
        return copy
    }

    /// A copy of a relationship with a renaming identifier.
    static func renamed(_ relationship: RelationshipDescription, from old: String) -> RelationshipDescription {
        var copy = relationship
        copy.renamingIdentifier = old
        return copy
    }

    /// A copy of an entity with a renaming identifier.
    static func renamed(_ entity: EntityDescription, from old: String) -> EntityDescription {
        var copy = entity
        copy.renamingIdentifier = old
        return copy
    }

    /// A model of one entity, `Book`, with these attributes.
    static func book(_ attributes: AttributeDescription...) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription("Book", attributes: attributes)])
    }

    /// Versions named v1, v2, … of the models, the last current.
    static func versions(_ models: ManagedObjectModel...) -> ModelVersions {
        ModelVersions(path: "built", versions: models.enumerated().map { ModelVersions.Version(name: "v\($0.offset + 1)", model: $0.element) })
    }

    /// A new store of `model` (written by GraphStore, so its hashes are the model's), with
    /// `cache` planted as its `Z_MODELCACHE` and its `NSStoreModelVersionHashes` replaced by
    /// `hashes` (removed when `hashes` is empty), as other writers leave them.
    static func store(of model: ManagedObjectModel, cache: ManagedObjectModel? = nil, hashes: [String: Data]? = nil) throws -> String {
        let path = try Fixtures.newStorePath()
        _ = try PersistentStore.create(at: path, model: model)
        let connection = try Connection(path: path, mode: .readWrite)
        if let cache {
            try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try connection.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)").execute([.blob(try ModelArchiveEncoder.compressed(cache))])
        }
        if let hashes {
            var metadata = StoreMetadata(newStoreFor: model)
            metadata.properties["NSStoreModelVersionHashes"] = hashes.isEmpty ? nil : hashes
            try connection.prepare("UPDATE Z_METADATA SET Z_PLIST = ?").execute([.blob(try metadata.encodedProperties())])
        }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return path
    }
}
