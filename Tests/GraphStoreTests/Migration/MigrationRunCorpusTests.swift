import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Every corpus store whose bundle has a later version, migrated on a copy (in one
    /// inferred step, and some also walking every version): step by step, each step's
    /// objects compared with the step's source (counts per entity, every
    /// kept attribute value, every relationship), or refused with the plan's exact reason;
    /// then the whole chain at once, which reopens with the current version's model and says
    /// that version in its metadata.
    @Suite struct MigrationRunCorpusTests {
        typealias Case = MigrationCorpusTests.Case

        static let cases = MigrationCorpusTests.cases.filter { $0.steps > 0 }

        /// A copy of a corpus store (with its log) in a fresh directory.
        static func copy(_ path: String) throws -> String {
            let copy = try Fixtures.newStorePath()
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
            return copy
        }

        // One case at a time: each is heavy (Wire's stores are large, and a walk goes through
        // up to 24 steps, twice), and run side by side they starve the suites that have time
        // limits.
        @Test(.serialized, arguments: cases) func migratesEveryObjectOrIsRefused(_ test: Case) throws {
            guard let corpus = try Fixtures.requireCorpus("migratesEveryObjectOrIsRefused") else { return }
            let original = corpus.appendingPathComponent(test.store).path
            let manager = try MigrationManager(bundle: corpus.appendingPathComponent(test.bundle).path)
            let path = try Self.copy(original)
            let plan = try manager.plan(forStoreAt: path, route: test.route)
            if let code = test.refusal {
                let before = Fixtures.fingerprint(path)
                let error = try #require(throws: MigrationRunError.self) { try manager.migrate(storeAt: path, route: test.route) }
                #expect(error.code == code.rawValue)
                guard case .refused(let refusals) = error else { Issue.record("\(error)"); return }
                #expect(refusals == plan.refusals)
                #expect("\(error)".contains(plan.refusals.first?.reason ?? "-"))
                #expect(Fixtures.fingerprint(path) == before, "a refused migration changed the store")
                return
            }
            // Step by step, every step compared; a walk longer than 40 steps only as a whole,
            // so that the suite stays within CI's time.
            for step in plan.steps where plan.steps.count <= 40 {
                try manager.migrate(storeAt: path, to: step.destination, route: test.route)
                let backup = MigrationManager.backupPath(for: path)
                try MigrationComparison(manager: manager, step: step, old: backup, new: path).check()
                // The next step keeps its own backup, and a migration never overwrites one.
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: backup + suffix) }
            }
            // The whole chain at once, on a fresh copy.
            let whole = try Self.copy(original)
            let outcome = try manager.migrate(storeAt: whole, route: test.route)
            #expect(outcome.replacedStore && outcome.validationFailures.isEmpty)
            #expect(outcome.objectCounts.filter { $0.value > 0 } == (plan.steps.last?.mapping.destinationCounts ?? [:]).filter { $0.value > 0 })
            let current = try #require(manager.versions.version(named: plan.targetVersion))
            let reopened = try PersistentStore(path: whole, model: current.model)
            #expect(reopened.metadata.versionHashes == current.versionHashes)
            #expect(reopened.metadata.versionIdentifiers == current.model.versionIdentifiers)
            let match = try ModelVersionMatch(store: try PersistentStore(path: whole), versions: manager.versions)
            #expect(match.fitting.contains(plan.targetVersion))
            let backup = try PersistentStore(path: MigrationManager.backupPath(for: whole))
            #expect(reopened.uuid == backup.uuid)
        }
    }
}

/// Compares a store migrated by one step with the store it came from, through the step's
/// mapping: counts per entity, each kept attribute's value, each relationship's
/// destinations, and `Z_MAX`.
struct MigrationComparison {
    let manager: MigrationManager
    let step: MigrationStep
    let old: String
    let new: String

    func check() throws {
        let source = try #require(manager.versions.version(named: step.source))
        let destination = try #require(manager.versions.version(named: step.destination))
        let before = try PersistentStore(path: old, model: source.model)
        let after = try PersistentStore(path: new, model: destination.model)
        let connection = try Connection(path: new, mode: .readOnly)
        try connection.prepare("ATTACH DATABASE ? AS old").execute([.text(old)])
        for entity in step.mapping.entities {
            let target = try after.mapping(for: entity.name)
            guard let sourceName = entity.source else {
                #expect(try after.count(of: target) == 0)
                continue
            }
            let from = try before.mapping(for: sourceName)
            #expect(try after.count(of: target) == before.count(of: from), "\(entity.name): count")
            let join = "FROM \(target.table) n JOIN old.\(from.table) o ON n.Z_PK = o.Z_PK AND o.Z_ENT = \(from.number) WHERE n.Z_ENT = \(target.number)"
            #expect(try connection.scalar("SELECT COUNT(*) \(join)") == .integer(Int64(try before.count(of: from))), "\(entity.name): keys")
            for attribute in entity.attributes {
                guard let sourceAttribute = attribute.source, let column = target.attribute(named: attribute.name)?.column,
                    let oldColumn = from.attribute(named: sourceAttribute)?.column
                else { continue }
                let differing = try connection.scalar("SELECT COUNT(*) \(join) AND n.\(column) IS NOT o.\(oldColumn) AND o.\(oldColumn) IS NOT NULL")
                #expect(differing == .integer(0), "\(entity.name).\(attribute.name) values differ")
            }
            for relationship in entity.relationships {
                guard let sourceRelationship = relationship.source else { continue }
                let storage = (target.relationship(named: relationship.name)?.storage, from.relationship(named: sourceRelationship)?.storage)
                if case (.foreignKey(let column, _, _)?, .foreignKey(let oldColumn, _, _)?) = storage {
                    let differing = try connection.scalar("SELECT COUNT(*) \(join) AND n.\(column) IS NOT o.\(oldColumn)")
                    #expect(differing == .integer(0), "\(entity.name).\(relationship.name) destinations differ")
                }
                if case (.joinTable(let table)?, .joinTable(let oldTable)?) = storage {
                    let pairs = "SELECT \(table.sourceColumn), \(table.destinationColumn) FROM \(table.table)"
                    let oldPairs = "SELECT \(oldTable.sourceColumn), \(oldTable.destinationColumn) FROM old.\(oldTable.table)"
                    #expect(try connection.scalar("SELECT COUNT(*) FROM (\(pairs) EXCEPT \(oldPairs))") == .integer(0))
                    #expect(try connection.scalar("SELECT COUNT(*) FROM (\(oldPairs) EXCEPT \(pairs))") == .integer(0))
                }
            }
            if target.entity.parent == nil {
                #expect((after.primaryKeyEntries[target.number]?.max ?? 0) >= (before.primaryKeyEntries[from.number]?.max ?? 0), "\(entity.name): Z_MAX")
            }
        }
        #expect(after.uuid == before.uuid)
    }
}
