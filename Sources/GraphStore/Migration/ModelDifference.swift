import Foundation

/// One way a model version differs from what a store says about itself: an entity, an
/// attribute, a relationship or a column.
///
/// ```swift
/// difference.description   // "attribute Book.author: in this version, not in the store"
/// ```
public struct ModelDifference: Sendable, Hashable, CustomStringConvertible {
    /// What differs.
    public enum Kind: String, Sendable, Hashable {
        case entity, attribute, relationship, column
    }

    /// What differs.
    public var kind: Kind
    /// The entity it is about.
    public var entity: String
    /// The property, for an attribute or relationship.
    public var property: String?
    /// How it differs.
    public var detail: String

    /// Creates a difference.
    public init(_ kind: Kind, entity: String, property: String? = nil, _ detail: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.detail = detail
    }

    public var description: String {
        "\(kind.rawValue) \(property.map { "\(entity).\($0)" } ?? entity): \(detail)"
    }
}

extension ModelDifference {
    /// How `version` differs from `store` (the model a store was written with, from its
    /// `Z_MODELCACHE`) on every input of the entity version hashes, property by declared
    /// property: what decides whether Core Data takes them for one model. `storeName` is
    /// what the first model is called in the details (a mapping model's snapshot is
    /// compared so too).
    static func between(store: ManagedObjectModel, version: ManagedObjectModel, storeName: String = "the store") -> [ModelDifference] {
        var found: [ModelDifference] = []
        let names = Set(store.entities.map(\.name)).union(version.entities.map(\.name))
        for name in names.sorted() {
            switch (store.entity(named: name), version.entity(named: name)) {
            case (nil, _): found.append(ModelDifference(.entity, entity: name, "in this version, not in \(storeName)"))
            case (_, nil): found.append(ModelDifference(.entity, entity: name, "in \(storeName), not in this version"))
            case (let old?, let new?): found += EntityComparison(entity: name, store: old, version: new, storeName: storeName).differences
            }
        }
        return found
    }

    /// How `version`'s hashes differ from a store's `NSStoreModelVersionHashes`, entity by
    /// entity (all a store without a model cache says about its model).
    static func between(storeHashes: [String: Data], version: [String: Data]) -> [ModelDifference] {
        Set(storeHashes.keys).union(version.keys).sorted().compactMap { name in
            switch (storeHashes[name], version[name]) {
            case (nil, _): ModelDifference(.entity, entity: name, "in this version, not in the store")
            case (_, nil): ModelDifference(.entity, entity: name, "in the store, not in this version")
            case (let a, let b) where a != b: ModelDifference(.entity, entity: name, "its version hash differs (a property or setting differs)")
            default: nil
            }
        }
    }
}

/// The differences between two declarations of one entity, on the hash inputs.
private struct EntityComparison {
    let entity: String
    let store: EntityDescription
    let version: EntityDescription
    let storeName: String
    private(set) var differences: [ModelDifference] = []

    init(entity: String, store: EntityDescription, version: EntityDescription, storeName: String) {
        self.entity = entity
        self.store = store
        self.version = version
        self.storeName = storeName
        compareEntity()
        compareAttributes()
        compareRelationships()
    }

    private mutating func compareEntity() {
        check(.entity, nil, "parent", store.parent ?? "none", version.parent ?? "none")
        check(.entity, nil, "abstract", store.isAbstract, version.isAbstract)
        check(.entity, nil, "version hash modifier", store.versionHashModifier ?? "none", version.versionHashModifier ?? "none")
        check(
            .entity, nil, "uniqueness constraints", store.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: "; "),
            version.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: "; "))
    }

    private mutating func compareAttributes() {
        let old = Dictionary(store.attributes.filter(\.isStored).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(version.attributes.filter(\.isStored).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(old.keys).union(new.keys).sorted() {
            guard let a = old[name], let b = new[name] else {
                differences.append(ModelDifference(.attribute, entity: entity, property: name, old[name] == nil ? "in this version, not in \(storeName)" : "in \(storeName), not in this version"))
                continue
            }
            check(.attribute, name, "type", a.type.xcodeName, b.type.xcodeName)
            check(.attribute, name, "optional", a.isOptional, b.isOptional)
            check(.attribute, name, "external storage", a.allowsExternalBinaryDataStorage, b.allowsExternalBinaryDataStorage)
            check(.attribute, name, "preserved after deletion", a.preservesValueInHistoryOnDeletion, b.preservesValueInHistoryOnDeletion)
            check(.attribute, name, "version hash modifier", a.versionHashModifier ?? "none", b.versionHashModifier ?? "none")
        }
    }

    private mutating func compareRelationships() {
        let old = Dictionary(store.relationships.filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(version.relationships.filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(old.keys).union(new.keys).sorted() {
            guard let a = old[name], let b = new[name] else {
                differences.append(ModelDifference(.relationship, entity: entity, property: name, old[name] == nil ? "in this version, not in \(storeName)" : "in \(storeName), not in this version"))
                continue
            }
            check(.relationship, name, "destination", a.destination, b.destination)
            check(.relationship, name, "inverse", a.inverse ?? "none", b.inverse ?? "none")
            check(.relationship, name, "to-many", a.isToMany, b.isToMany)
            check(.relationship, name, "ordered", a.isOrdered, b.isOrdered)
            check(.relationship, name, "optional", a.isOptional, b.isOptional)
            check(.relationship, name, "minimum count", a.minCount, b.minCount)
            check(.relationship, name, "maximum count", a.maxCount, b.maxCount)
            check(.relationship, name, "version hash modifier", a.versionHashModifier ?? "none", b.versionHashModifier ?? "none")
        }
    }

    private mutating func check<T: Equatable & CustomStringConvertible>(
        _ kind: ModelDifference.Kind, _ property: String?, _ field: String, _ inStore: T, _ inVersion: T
    ) {
        guard inStore != inVersion else { return }
        differences.append(ModelDifference(kind, entity: entity, property: property, "\(field): \(inStore) in \(storeName), \(inVersion) in this version"))
    }
}
