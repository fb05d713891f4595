import Foundation
import Testing
import TestScratch

@testable import GraphStore

/// Every corpus store with a model GraphStore can use (the app's model the manifest pairs it
/// with, or the store's own Z_MODELCACHE): each entity exported as seed text, loaded back into
/// a new store made for the same model, and every value compared bit for bit (doubles and
/// dates by their bits, bytes, UUIDs, URIs, decimals by their text) with every relationship by
/// its destinations' keys. What cannot round trip is said per store, and asserted.
@Suite struct CorpusRoundTripTests {
    struct Outcome: CustomStringConvertible {
        var store: String
        var entities = 0
        var objects = 0
        var values = 0
        var differences: [String] = []
        var reason: String?
        /// What the test had to add for the store to be read at all (said in the table).
        var note = ""

        var exact: Bool { reason == nil && differences.isEmpty }
        var description: String {
            "| \(store) | \(entities) | \(objects) | \(values) | \(exact ? "yes" : "no") | \(reason ?? differences.prefix(3).joined(separator: "; ")) \(note) |"
        }
    }

    @Test func everyCorpusStoreRoundTripsThroughSeedTextExactly() throws {
        guard let corpus = try Fixtures.requireCorpus("everyCorpusStoreRoundTripsThroughSeedTextExactly") else { return }
        let pairs = ModelIOCorpus.pairs(in: corpus)
        var outcomes: [Outcome] = []
        for path in ModelIOCorpus.stores(in: corpus) {
            let name = ModelIOCorpus.relative(path, to: corpus)
            var outcome = Outcome(store: name)
            do {
                let (readable, supplied) = try Self.supplyingMissingExternalData(path, models: pairs[path] ?? [])
                if supplied > 0 { outcome.note = "(\(supplied == 1 ? "1 external data file the corpus lacks was" : "\(supplied) external data files the corpus lacks were") supplied)" }
                let store = try Self.open(readable, models: pairs[path] ?? [])
                if case .inferred = store.modelOrigin { outcome.note += "(model inferred from the schema)" }
                try Self.roundTrip(store, into: &outcome)
            } catch {
                outcome.reason = "\(error)"
            }
            outcomes.append(outcome)
        }
        print("| store | entities | objects | values compared | exact | why not |\n|---|---|---|---|---|---|")
        print(outcomes.map(\.description).joined(separator: "\n"))
        #expect(outcomes.count >= 25)
        for outcome in outcomes {
            #expect(outcome.exact, "\(outcome)")
        }
    }

    /// The store with the first model the manifest pairs it with, else with its own cached
    /// model, else with the model GraphStore infers from its schema (the one a session
    /// without a model exports and imports through).
    static func open(_ path: String, models: Set<String>) throws -> PersistentStore {
        if let model = models.sorted().first { return try PersistentStore(path: path, modelPath: model) }
        return try PersistentStore(path: path)
    }

    /// Some corpus stores come without their support folder, so a value kept in an external
    /// file cannot be read (Core Data cannot read it either). For such a store, a scratch
    /// copy with a file for each missing reference (bytes made from its name) and how many;
    /// else the store itself and 0.
    static func supplyingMissingExternalData(_ path: String, models: Set<String>) throws -> (String, Int) {
        let store = try open(path, models: models)
        let context = ManagedObjectContext(store: store)
        var missing = Set<String>()
        for entity in store.model.entities where !entity.isAbstract {
            let external = store.model.attributes(of: entity.name).filter(\.allowsExternalBinaryDataStorage)
            guard !external.isEmpty else { continue }
            for object in try context.fetch(entity.name, exactEntity: true) {
                for attribute in external {
                    if let reference = try object.externalDataReference(forKey: attribute.name), !reference.exists { missing.insert(reference.name) }
                }
            }
        }
        guard !missing.isEmpty else { return (path, 0) }
        let copy = try ScratchDirectory.make("round-trip-store").appendingPathComponent((path as NSString).lastPathComponent).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let folder = StoreSupportFolder(storePath: copy)
        try FileManager.default.createDirectory(atPath: folder.externalDataPath, withIntermediateDirectories: true)
        for name in missing {
            let bytes = Data(String(repeating: "external data \(name)\n", count: 100).utf8)
            try bytes.write(to: URL(fileURLWithPath: folder.externalDataFile(named: name)))
        }
        return (copy, missing.count)
    }

    // MARK: - One store

    /// Exports every entity, loads them all into a new store for the same model in one
    /// import (every object made before any relationship is set), and compares.
    static func roundTrip(_ store: PersistentStore, into outcome: inout Outcome) throws {
        let model = store.model
        let context = ManagedObjectContext(store: store)
        let concrete = model.entities.filter { !$0.isAbstract }.map(\.name)
        var keys = try NaturalKeys(parsing: try keyAttributes(context, model: model).map { "\($0.key)=\($0.value)" }, model: model)
        // An entity with no attribute to name its objects by is named by object ID (`--ids`).
        keys.keepsObjectIDs = true
        let carried = carriedRelationships(model, keys: keys)
        let copyPath = try Fixtures.newStorePath()
        let copyStore = try PersistentStore.create(at: copyPath, model: model)
        let copy = ManagedObjectContext(store: copyStore)
        let exporter = SeedExporter(context: context, keys: keys)
        let directory = try ScratchDirectory.make("round-trip")
        var originals: [String: [ManagedObject]] = [:]
        var loads: [SeedLoad] = []
        for entity in concrete {
            let (columns, objects) = try exporter.snapshot(of: entity, exactEntity: true, namingUnkeyed: true)
            outcome.entities += 1
            if objects.isEmpty { continue }
            // The relationships one side of each pair carries; the other follows by its inverse.
            let kept = Set([NaturalKeyIndex.objectIDColumn] + model.attributes(of: entity).map(\.name) + carried[entity, default: []])
            let records = objects.map { SeedRecord(line: $0.record.line, fields: $0.record.fields.filter { kept.contains($0.name) }) }
            let file = directory.appendingPathComponent("\(entity).csv").path
            try SeedFile.write(records, columns: columns.filter(kept.contains), to: file, entity: entity, model: model)
            loads.append(SeedLoad(entity: entity, file: "\(entity).csv", records: try SeedFile.read(file, keys: keys, entity: entity, model: model)))
            // The objects in the order their records were written (a record's line is its
            // object's place in the exporter's fetch, plus 2).
            let fetched = try context.fetch(entity, exactEntity: true)
            originals[entity] = records.map { fetched[$0.line - 2] }
        }
        try SeedImporter(context: copy, keys: keys).load(loads)
        try compare(originals, in: context, with: ManagedObjectContext(store: try PersistentStore(path: copyPath, model: model)), keys: keys, into: &outcome)
    }

    /// For each root entity, an attribute whose values are set and distinct over all its
    /// objects (sub-entities' too): what relationships to it are carried by. UUIDs first,
    /// then strings, then integers.
    static func keyAttributes(_ context: ManagedObjectContext, model: ManagedObjectModel) throws -> [String: String] {
        var result: [String: String] = [:]
        let rank: [AttributeType: Int] = [.uuid: 0, .string: 1, .uri: 2, .integer64: 3, .integer32: 4, .integer16: 5, .date: 6]
        for root in model.entities where root.parent == nil {
            let objects = try context.fetch(root.name)
            let candidates = model.attributes(of: root.name).filter { !$0.isTransient && rank[$0.type] != nil }
                .sorted { (rank[$0.type] ?? 9, $0.name) < (rank[$1.type] ?? 9, $1.name) }
            for attribute in candidates {
                var seen = Set<String>()
                let unique = try objects.allSatisfy { object in
                    guard let value = try object.value(forKey: attribute.name) else { return false }
                    return seen.insert(SeedValueText.format(value)).inserted
                }
                if unique {
                    result[root.name] = attribute.name
                    break
                }
            }
        }
        return result
    }

    /// Entity → the relationships its import carries: one side of each pair (an ordered
    /// to-many, which carries its order, else a to-one, else the side earlier by entity and
    /// name), both sides of a many-to-many ordered on both (each side has its own order);
    /// a relationship without an inverse is carried by its own entity.
    static func carriedRelationships(_ model: ManagedObjectModel, keys: NaturalKeys) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entity in model.entities where !entity.isAbstract {
            for relationship in model.relationships(of: entity.name) where !relationship.isTransient {
                guard let inverseName = relationship.inverse, let inverse = model.relationship(inverseName, of: relationship.destination) else {
                    result[entity.name, default: []].append(relationship.name)
                    continue
                }
                if relationship.isOrdered && inverse.isOrdered {
                    result[entity.name, default: []].append(relationship.name)
                    continue
                }
                func weight(_ r: RelationshipDescription) -> Int { r.isToMany ? (r.isOrdered ? 0 : 2) : 1 }
                let mine = (weight(relationship), model.root(of: entity.name)?.name ?? entity.name, relationship.name)
                let theirs = (weight(inverse), model.root(of: relationship.destination)?.name ?? relationship.destination, inverse.name)
                if mine <= theirs {  // equal only for a relationship that is its own inverse
                    result[entity.name, default: []].append(relationship.name)
                }
            }
        }
        return result
    }

    // MARK: - Comparing

    /// Each original object against the copy's object of the same place (the copy's objects
    /// of an entity, by Z_PK, are in the order they were loaded).
    static func compare(_ originals: [String: [ManagedObject]], in context: ManagedObjectContext, with copy: ManagedObjectContext, keys: NaturalKeys, into outcome: inout Outcome) throws {
        let originalIndex = NaturalKeyIndex(context: context, keys: keys)
        let copyIndex = NaturalKeyIndex(context: copy, keys: keys)
        let model = copy.store.model
        for (entity, objects) in originals.sorted(by: { $0.key < $1.key }) {
            let copies = try copy.fetch(entity, exactEntity: true).sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
            guard copies.count == objects.count else {
                outcome.differences.append("\(entity): \(objects.count) objects, \(copies.count) loaded")
                continue
            }
            outcome.objects += objects.count
            // Objects named by object ID keep it: compare each with the copy of the same key.
            let originals = keys.parts(of: entity) == nil ? objects.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) } : objects
            for (original, loaded) in zip(originals, copies) {
                for attribute in model.attributes(of: entity) where !attribute.isTransient {
                    outcome.values += 1
                    let before = try original.value(forKey: attribute.name)
                    let after = try loaded.value(forKey: attribute.name)
                    if !identical(before, after) {
                        outcome.differences.append("\(entity).\(attribute.name): \(before.map(String.init(describing:)) ?? "nil") became \(after.map(String.init(describing:)) ?? "nil")")
                    }
                }
                for relationship in model.relationships(of: entity) where !relationship.isTransient {
                    outcome.values += 1
                    let before = try destinations(original, relationship, index: originalIndex)
                    let after = try destinations(loaded, relationship, index: copyIndex)
                    if before != after { outcome.differences.append("\(entity).\(relationship.name): \(before) became \(after)") }
                }
            }
        }
    }

    /// A relationship's destinations by key: in order when ordered, else sorted.
    static func destinations(_ object: ManagedObject, _ relationship: RelationshipDescription, index: NaturalKeyIndex) throws -> [String] {
        let members = relationship.isToMany ? try object.objects(forKey: relationship.name) : [try object.object(forKey: relationship.name)].compactMap { $0 }
        let texts = try members.map { try index.keyText(of: $0) ?? "?" }
        return relationship.isOrdered ? texts : texts.sorted()
    }

    /// The same value to the bit: doubles and dates by their bit patterns (so `-0.0` is not
    /// `0.0`), decimals by their text, the rest by equality.
    static func identical(_ a: AttributeValue?, _ b: AttributeValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.double(let x)?, .double(let y)?): return x.bitPattern == y.bitPattern
        case (.date(let x)?, .date(let y)?): return x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.decimal(let x)?, .decimal(let y)?): return x.description == y.description
        case (.uri(let x)?, .uri(let y)?): return x.absoluteString == y.absoluteString
        case (let x?, let y?): return x == y
        default: return false
        }
    }
}
