import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Relationships whose storage changes shape between versions (one-to-one, one-to-many
    /// and many-to-many into one another, either side, ordered or not, to a destination with
    /// sub-entities): every link carried, in both directions, on real stores; a to-many
    /// becoming to-one where an object has several destinations refused before anything is
    /// written.
    @Suite struct RelationshipShapeMigrationTests {
        typealias F = MigrationFixtures

        /// How one side of the pair Writer.links ↔ Note.owners is declared.
        enum Side: Sendable, CustomStringConvertible {
            case toOne, toMany, ordered

            var isToMany: Bool { self != .toOne }
            var description: String { self == .toOne ? "1" : self == .toMany ? "N" : "N(ordered)" }
        }

        /// Writer.links → Note, its inverse Note.owners (none when `owners` is nil); Note
        /// has a sub-entity Memo when `memo`; `shifted` adds an entity that takes number 1, so
        /// that every entity number differs from the other version's.
        static func model(links: Side, owners: Side?, memo: Bool = false, shifted: Bool = false) throws -> ManagedObjectModel {
            var entities = [
                EntityDescription("Writer", attributes: [AttributeDescription("name", .string)], relationships: [
                    RelationshipDescription(
                        "links", to: "Note", inverse: owners == nil ? nil : "owners", toMany: links.isToMany, ordered: links == .ordered)
                ]),
                EntityDescription("Note", attributes: [AttributeDescription("text", .string)], relationships: owners.map {
                    [RelationshipDescription("owners", to: "Writer", inverse: "links", toMany: $0.isToMany, ordered: $0 == .ordered)]
                } ?? []),
            ]
            if memo { entities.append(EntityDescription("Memo", parent: "Note", attributes: [AttributeDescription("extra", .string)])) }
            if shifted { entities.append(EntityDescription("Aardvark", attributes: [AttributeDescription("tag", .string)])) }
            return try ManagedObjectModel(entities: entities)
        }

        /// A store of `model` with writers 1…4 and notes 1…5 (notes 4 and 5 Memos when the
        /// model has them), linked writer → note as `pairs` says, in that order.
        static func store(_ model: ManagedObjectModel, pairs: [(Int, Int)]) throws -> String {
            let path = try Fixtures.newStorePath()
            let store = try PersistentStore.create(at: path, model: model)
            let context = ManagedObjectContext(store: store)
            let hasMemo = model.entity(named: "Memo") != nil
            var writers: [ManagedObject] = []
            var notes: [ManagedObject] = []
            for index in 1...4 {
                let writer = try context.insert("Writer")
                try writer.set("name", "w\(index)")
                writers.append(writer)
            }
            for index in 1...5 {
                let note = try context.insert(hasMemo && index >= 4 ? "Memo" : "Note")
                try note.set("text", "n\(index)")
                notes.append(note)
            }
            let toMany = model.entity(named: "Writer")?.relationship(named: "links")?.isToMany ?? false
            for (writer, note) in pairs {
                if toMany {
                    try writers[writer - 1].add(notes[note - 1], toKey: "links")
                } else {
                    try writers[writer - 1].setObject(notes[note - 1], forKey: "links")
                }
            }
            try context.save()
            try store.checkpoint()
            return path
        }

        /// Every link of the store, both directions, by object: `Writer/p1.links` →
        /// `["Memo/p4", "Note/p1"]` (in stored order for an ordered to-many, sorted otherwise).
        static func links(_ path: String, _ model: ManagedObjectModel) throws -> [String: [String]] {
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
            var found: [String: [String]] = [:]
            for (entity, key) in [("Writer", "links"), ("Note", "owners")] {
                guard let relationship = model.entity(named: entity)?.relationship(named: key) else { continue }
                for object in try context.fetch(entity) {
                    let ids = relationship.isToMany ? try object.objectIDs(forKey: key) : [try object.objectID(forKey: key)].compactMap { $0 }
                    let names = ids.map(\.description)
                    found["\(object.objectID).\(key)"] = relationship.isOrdered ? names : names.sorted()
                }
            }
            return found
        }

        /// One shape change and the links the store holds (each side keeping to what both
        /// versions allow).
        struct Change: Sendable, CustomStringConvertible {
            var from: (links: Side, owners: Side)
            var to: (links: Side, owners: Side)
            var pairs: [Pair]
            var memo = false

            struct Pair: Sendable {
                var writer: Int
                var note: Int
            }

            var description: String { "\(from.links)-\(from.owners) → \(to.links)-\(to.owners)\(memo ? " (Memo)" : "")" }
        }

        /// Links where every writer and every note has at most one.
        static let single = [(1, 1), (2, 4), (3, 2)].map { Change.Pair(writer: $0.0, note: $0.1) }
        /// Writers with one note at most; note 1 has two writers.
        static let singleNote = [(1, 1), (2, 1), (3, 4)].map { Change.Pair(writer: $0.0, note: $0.1) }
        /// Notes with one writer at most; writer 1 has two notes.
        static let singleWriter = [(1, 4), (1, 1), (3, 2)].map { Change.Pair(writer: $0.0, note: $0.1) }
        /// Several on both sides.
        static let several = [(1, 4), (1, 1), (2, 1), (3, 2)].map { Change.Pair(writer: $0.0, note: $0.1) }

        static let changes: [Change] = [
            // one-to-many → one-to-one, from either side
            Change(from: (.toMany, .toOne), to: (.toOne, .toOne), pairs: single),
            Change(from: (.toOne, .toMany), to: (.toOne, .toOne), pairs: single),
            // one-to-one → one-to-many, either way round
            Change(from: (.toOne, .toOne), to: (.toMany, .toOne), pairs: single),
            Change(from: (.toOne, .toOne), to: (.toOne, .toMany), pairs: single),
            // one-to-many flipped: the column moves to the other table
            Change(from: (.toOne, .toMany), to: (.toMany, .toOne), pairs: single),
            // many-to-many → one-to-many (either side) and one-to-one
            Change(from: (.toMany, .toMany), to: (.toOne, .toMany), pairs: singleNote),
            Change(from: (.toMany, .toMany), to: (.toMany, .toOne), pairs: singleWriter),
            Change(from: (.toMany, .toMany), to: (.toOne, .toOne), pairs: single),
            // one-to-one and one-to-many → many-to-many, from either side
            Change(from: (.toOne, .toOne), to: (.toMany, .toMany), pairs: single),
            Change(from: (.toMany, .toOne), to: (.toMany, .toMany), pairs: singleWriter),
            Change(from: (.toOne, .toMany), to: (.toMany, .toMany), pairs: singleNote),
            // an ordered side kept across the change of shape, and one that becomes ordered
            Change(from: (.ordered, .toOne), to: (.ordered, .toMany), pairs: singleWriter),
            Change(from: (.toOne, .ordered), to: (.toMany, .ordered), pairs: singleNote),
            Change(from: (.ordered, .toMany), to: (.ordered, .toOne), pairs: singleWriter),
            Change(from: (.toOne, .toOne), to: (.ordered, .toOne), pairs: single),
            // to a destination with sub-entities, whose entity numbers all change
            Change(from: (.toMany, .toMany), to: (.toOne, .toMany), pairs: singleNote, memo: true),
            Change(from: (.toMany, .toOne), to: (.toOne, .toOne), pairs: single, memo: true),
        ]

        @Test(arguments: changes)
        func everyLinkIsCarriedBothWays(_ change: Change) throws {
            let v1 = try Self.model(links: change.from.links, owners: change.from.owners, memo: change.memo)
            let v2 = try Self.model(links: change.to.links, owners: change.to.owners, memo: change.memo, shifted: change.memo)
            let path = try Self.store(v1, pairs: change.pairs.map { ($0.writer, $0.note) })
            let before = try Self.links(path, v1)
            let outcome = try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            #expect(outcome.replacedStore && outcome.validationFailures.isEmpty)
            let store = try PersistentStore(path: path, model: v2)
            #expect(store.metadata.versionHashes == v2.entityVersionHashes)
            let after = try Self.links(path, v2)
            // An order is compared only where both versions have it; elsewhere as sets.
            func comparable(_ links: [String: [String]], _ model: ManagedObjectModel, _ other: ManagedObjectModel) -> [String: [String]] {
                links.reduce(into: [:]) { result, entry in
                    let key = String(entry.key.split(separator: ".").last ?? "")
                    let entity = key == "links" ? "Writer" : "Note"
                    let ordered = [model, other].allSatisfy { $0.entity(named: entity)?.relationship(named: key)?.isOrdered == true }
                    result[entry.key] = ordered ? entry.value : entry.value.sorted()
                }
            }
            #expect(comparable(after, v2, v1) == comparable(before, v1, v2))
            #expect(before.values.contains { !$0.isEmpty })
            if change.memo { #expect(after.values.contains { $0.contains { $0.hasPrefix("Memo/") } }) }
            let failed = try StoreVerifier(store: store).verify().filter {
                $0.status == .failed && ($0.name.hasPrefix("graph.") || $0.name.hasPrefix("layout."))
            }
            #expect(failed.isEmpty, "\(failed)")
        }

        /// A side that becomes ordered takes its destinations in key order; one that stays
        /// ordered keeps its order through the new storage.
        @Test func orderIsKeptOrTakenByKey() throws {
            let v1 = try Self.model(links: .ordered, owners: .toOne)
            let v2 = try Self.model(links: .ordered, owners: .ordered)
            let path = try Self.store(v1, pairs: [(1, 4), (1, 1), (1, 3), (2, 2)])
            try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path)
            let after = try Self.links(path, v2)
            #expect(after["Writer/p1.links"] == ["Note/p4", "Note/p1", "Note/p3"])
            #expect(after["Note/p4.owners"] == ["Writer/p1"])

            // Note 1's writers, in the order they were linked (not key order), through a new join table.
            let v3 = try Self.model(links: .toOne, owners: .ordered)
            let v4 = try Self.model(links: .toMany, owners: .ordered)
            let other = try Self.store(v3, pairs: [(3, 1), (1, 1), (2, 1), (4, 2)])
            #expect(try Self.links(other, v3)["Note/p1.owners"] == ["Writer/p3", "Writer/p1", "Writer/p2"])
            try MigrationManager(versions: F.versions(v3, v4)).migrate(storeAt: other)
            #expect(try Self.links(other, v4)["Note/p1.owners"] == ["Writer/p3", "Writer/p1", "Writer/p2"])
        }

        /// Several destinations for what becomes a to-one: refused with 134110 before anything
        /// is written, naming the step, the relationship, how many and one of them.
        @Test func severalDestinationsRefuseTheMigrationAndWriteNothing() throws {
            let v1 = try Self.model(links: .toMany, owners: .toOne)
            let v2 = try Self.model(links: .toOne, owners: .toOne)
            let path = try Self.store(v1, pairs: [(2, 4), (2, 1), (3, 2), (3, 3), (1, 5)])
            let before = Fixtures.fingerprint(path)
            let manager = MigrationManager(versions: F.versions(v1, v2))
            let plan = try manager.plan(forStoreAt: path)
            #expect(plan.isRefused)
            #expect(plan.text.contains("  refused (134110): Writer.links: becomes a to-one in step v1 → v2"))
            let error = try #require(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            #expect(error.code == 134110)
            #expect("\(error)" == "refused: Writer.links: becomes a to-one in step v1 → v2, but 2 Writer objects have more than one destination (Writer/p2 is one) and a to-one keeps only one: links would be lost (134110)")
            #expect(Fixtures.fingerprint(path) == before)
            #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
        }

        /// In a walk, a later step's to-one is checked on that step's own source file when
        /// it runs: refused there, the store left as it was and no file left behind. (The
        /// one inferred step checks it on the store, in the plan.)
        @Test func aLaterStepOfAChainIsCheckedWhenItRuns() throws {
            let v1 = try Self.model(links: .toMany, owners: .toMany)
            let v2 = try Self.model(links: .toMany, owners: .toOne)
            let v3 = try Self.model(links: .toOne, owners: .toOne)
            let path = try Self.store(v1, pairs: [(1, 1), (1, 2), (2, 3)])
            let before = Fixtures.fingerprint(path)
            let manager = MigrationManager(versions: F.versions(v1, v2, v3))
            #expect(try !manager.plan(forStoreAt: path, route: .everyVersion).isRefused)
            #expect(try manager.plan(forStoreAt: path).isRefused)
            let error = try #require(throws: MigrationRunError.self) { try manager.migrate(storeAt: path, route: .everyVersion) }
            #expect("\(error)" == "refused: Writer.links: becomes a to-one in step v2 → v3, but 1 Writer object has more than one destination (Writer/p1 is one) and a to-one keeps only one: links would be lost (134110)")
            #expect(Fixtures.fingerprint(path) == before)
            let left = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            #expect(left.sorted() == ["store.sqlite"], "\(left)")
        }

        /// A pair becoming one-to-one where one note is claimed by several writers: refused
        /// from the note's side.
        @Test func aNoteClaimedBySeveralRefusesOneToOne() throws {
            let v1 = try Self.model(links: .toMany, owners: .toMany)
            let v2 = try Self.model(links: .toOne, owners: .toOne)
            let path = try Self.store(v1, pairs: [(1, 3), (2, 3), (4, 3)])
            let before = Fixtures.fingerprint(path)
            let error = try #require(throws: MigrationRunError.self) { try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path) }
            #expect("\(error)" == "refused: Note.owners: becomes a to-one in step v1 → v2, but 1 Note object has more than one destination (Note/p3 is one) and a to-one keeps only one: links would be lost (134110)")
            #expect(Fixtures.fingerprint(path) == before)
        }

        /// A to-one without an inverse that becomes a to-many without one: GraphStore cannot
        /// store that shape, and says so before writing.
        @Test func aToManyWithoutInverseIsRefusedWithItsReason() throws {
            let v1 = try Self.model(links: .toOne, owners: nil)
            let v2 = try Self.model(links: .toMany, owners: nil)
            let path = try Self.store(v1, pairs: [(1, 1)])
            let before = Fixtures.fingerprint(path)
            let error = try #require(throws: MigrationRunError.self) { try MigrationManager(versions: F.versions(v1, v2)).migrate(storeAt: path) }
            #expect("\(error)" == "v1 → v2: Writer.links becomes a to-many without an inverse, which GraphStore cannot store (give it an inverse); GraphStore does not carry this change yet (134110)")
            #expect(Fixtures.fingerprint(path) == before)
        }

        /// The plan says what happens to each relationship whose shape changes.
        @Test func thePlanSaysWhereTheLinksGo() throws {
            let v1 = try Self.model(links: .toMany, owners: .toOne)
            let v2 = try Self.model(links: .toOne, owners: .toMany)
            let path = try Self.store(v1, pairs: [(1, 1), (2, 2)])
            let text = try MigrationManager(versions: F.versions(v1, v2)).plan(forStoreAt: path).text
            #expect(text.contains("""
                  Writer (4 objects):
                    links: becomes to-one: each object's one destination is kept (an object with several would lose links, and refuses the migration with 134110 before anything is written); stored in a column of this entity's table (was the inverse's column): its links move there
                """), "\(text)")
            #expect(text.contains("    owners: becomes to-many: each object's destination becomes its one member; stored in the inverse's column (was a column of this entity's table): its links move there"), "\(text)")
        }
    }
}
