import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Which version a store is, on stores built here: by hashes, and where the hashes
    /// cannot decide, by the store's model cache or its tables and columns.
    @Suite struct ModelVersionMatchTests {
        typealias F = MigrationFixtures

        /// Invoice's hash relies on an unverified feature (a Decimal attribute); Customer's does not.
        private func invoices(_ extra: AttributeDescription...) throws -> ManagedObjectModel {
            try ManagedObjectModel {
                EntityDescription("Invoice", attributes: [AttributeDescription("total", .decimal), AttributeDescription("number", .integer32)] + extra)
                EntityDescription("Customer") { AttributeDescription("name", .string) }
            }
        }

        private func match(_ path: String, _ versions: ModelVersions) throws -> ModelVersionMatch {
            let before = Fixtures.fingerprint(path)
            let store = try PersistentStore(path: path)
            let match = try ModelVersionMatch(store: store, versions: versions)
            #expect(Fixtures.fingerprint(path) == before, "the store changed")
            return match
        }

        @Test func hashesDecideAndNameWhatDiffers() throws {
            let v1 = try Fixtures.bookStoreModel()
            var entities = v1.entities
            entities[1].attributes.append(AttributeDescription("author", .string))
            let v2 = try ManagedObjectModel(entities: entities)
            let versions = F.versions(v1, v2)
            let match = try match(try F.store(of: v1), versions)
            #expect(match.fitting == ["v1"] && match.storeVersion == "v1" && match.nearest.isEmpty)
            let (first, second) = (match.candidates[0], match.candidates[1])
            #expect(first.method == .versionHashes && first.agreeingHashes == 3 && first.entityCount == 3 && first.differences.isEmpty)
            #expect(!second.fits && second.isCurrent && second.method == .versionHashes && second.agreeingHashes == 2)
            // No model cache: the hashes and the tables say what differs.
            #expect(second.differences.map(\.description) == [
                "entity Book: its version hash differs (a property or setting differs)", "column Book: no column ZAUTHOR in table ZBOOK",
            ])
            #expect(match.objectCounts == ["Book": 0, "BookCategory": 0, "Page": 0])
        }

        @Test func theModelCacheNamesEachDifferingProperty() throws {
            let v1 = try Fixtures.bookStoreModel()
            var entities = v1.entities
            entities[1].attributes[0].isOptional = false
            let v2 = try ManagedObjectModel(entities: entities)
            let match = try match(try F.store(of: v2, cache: v2), F.versions(v1))
            #expect(match.fitting.isEmpty && match.nearest == ["v1"] && match.storeVersion == nil)
            #expect(match.candidates[0].differences == [
                ModelDifference(.attribute, entity: "Book", property: "title", "optional: false in the store, true in this version")
            ])
        }

        /// Invoice's hash in the store is not the one GraphStore computes (as when Core Data
        /// hashes a Decimal attribute otherwise): the store's model cache decides.
        @Test func theModelCacheDecidesWhereHashesAreUnverified() throws {
            let v1 = try invoices()
            #expect(v1.unverifiedVersionHashes["Invoice"] != nil && v1.unverifiedVersionHashes["Customer"] == nil)
            var hashes = v1.entityVersionHashes
            hashes["Invoice"] = Data(repeating: 7, count: 32)
            let path = try F.store(of: v1, cache: v1, hashes: hashes)
            let v2 = try invoices(AttributeDescription("note", .string))
            let match = try match(path, F.versions(v1, v2))
            #expect(match.fitting == ["v1"] && match.candidates[0].method == .modelCache)
            #expect(match.candidates[0].agreeingHashes == 1 && match.candidates[0].entityCount == 2)
            #expect(match.candidates[1].method == .modelCache && match.candidates[1].differences.map(\.description) == [
                "attribute Invoice.note: in this version, not in the store"
            ])
        }

        /// Neither hashes nor a cache: the tables and columns decide, both ways.
        @Test func tablesAndColumnsDecideWithoutHashesOrCache() throws {
            let v1 = try invoices()
            let path = try F.store(of: v1, hashes: [:])
            let more = try invoices(AttributeDescription("note", .string))
            let fewer = try ManagedObjectModel {
                EntityDescription("Invoice", attributes: [AttributeDescription("total", .decimal)])
                EntityDescription("Customer") { AttributeDescription("name", .string) }
            }
            let match = try match(path, F.versions(fewer, v1, more))
            #expect(match.fitting == ["v2"] && match.candidates.allSatisfy { $0.method == .tablesAndColumns && $0.entityCount == 0 })
            #expect(match.candidates[0].differences.map(\.description) == ["column Invoice: column ZNUMBER of table ZINVOICE is in the store, not in this version"])
            #expect(match.candidates[2].differences.map(\.description) == ["column Invoice: no column ZNOTE in table ZINVOICE"])
        }

        /// Versions Core Data cannot tell apart all fit; the store's version identifiers
        /// pick one, else the latest.
        @Test func identicalVersionsAllFit() throws {
            var v1 = try Fixtures.bookStoreModel()
            v1.versionIdentifiers = ["1"]
            var v2 = v1
            v2.versionIdentifiers = ["2"]
            let versions = F.versions(v1, v2, try invoices())
            let match = try match(try F.store(of: v1), versions)
            #expect(match.fitting == ["v1", "v2"] && match.storeVersion == "v1")
            #expect(match.choice?.contains("NSStoreModelVersionIdentifiers (1) name v1") == true)
            #expect(match.candidates[0].identicalVersions == ["v2"])
            var unnamed = v1
            unnamed.versionIdentifiers = [""]
            let latest = try self.match(try F.store(of: unnamed), versions)
            #expect(latest.storeVersion == "v2" && latest.choice?.contains("taking the latest") == true)
        }

        @Test func aPlanForAStoreStartsAtItsVersion() throws {
            let v1 = try Fixtures.bookStoreModel()
            var entities = v1.entities
            entities[1].attributes.append(AttributeDescription("author", .string))
            let versions = F.versions(v1, try ManagedObjectModel(entities: entities))
            let path = try F.store(of: v1)
            let found = try match(path, versions)
            let plan = try MigrationPlan(match: found, versions: versions)
            #expect(plan.sourceVersion == "v1" && plan.store?.method == .versionHashes && plan.steps.count == 1)
            #expect(plan.steps[0].mapping.entity(named: "Book")?.objectCount == 0)
            let other = try match(try F.store(of: try invoices()), versions)
            #expect(throws: MigrationError.noFittingVersion(store: other.store, bundle: "built", nearest: ["v1", "v2"])) {
                try MigrationPlan(match: other, versions: versions)
            }
        }
    }
}
