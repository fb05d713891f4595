import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Plans over built versions: one inferred step by default, as Core Data infers it; a
    /// walk with one step per pair of neighbours (identical versions passed over) or through
    /// named versions on request; counts carried, any refused step refusing the plan.
    @Suite struct MigrationPlanTests {
        typealias F = MigrationFixtures

        /// Core Data infers one mapping straight from the store's version to the target.
        @Test func byDefaultOneStepGoesStraightToTheTarget() throws {
            let versions = F.versions(
                try F.book(AttributeDescription("title", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("author", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("author", .string), AttributeDescription("year", .integer16)))
            let plan = try MigrationPlan(versions: versions, from: "v1").counted(["Book": 7])
            #expect(plan.route == .inferred && plan.steps.map { "\($0.source)→\($0.destination)" } == ["v1→v3"])
            #expect(plan.text.hasPrefix("Migration from v1 to v3 (current): 1 step, inferred as Core Data's lightweight migration infers it, straight to the target (not through v2; migrate --walk goes through each version)\n"), "\(plan.text)")
            #expect(plan.text.contains("Book (7 objects):\n    author: added (String), starts empty\n    year: added (Integer 16)"), "\(plan.text)")
            #expect(plan.outcome == "Can be migrated in 1 step; every value is kept.")
            // Through named versions: one step to each, then to the target.
            let through = try MigrationPlan(versions: versions, from: "v1", route: .through(["v2"]))
            #expect(through.steps.map { "\($0.source)→\($0.destination)" } == ["v1→v2", "v2→v3"])
            #expect(through.text.contains("2 steps through v2, each inferred"))
            #expect(throws: MigrationError.unknownVersion(bundle: "built", requested: "v7", available: ["v1", "v2", "v3"])) {
                try MigrationPlan(versions: versions, from: "v1", route: .through(["v7"]))
            }
        }

        @Test func aWalkHasOneStepPerNeighbour() throws {
            let versions = F.versions(
                try F.book(AttributeDescription("title", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("author", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("author", .string), AttributeDescription("year", .integer16)))
            let plan = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion)
            #expect(plan.targetVersion == "v3" && plan.targetIsCurrent && !plan.isBackward && !plan.isRefused)
            #expect(plan.steps.map { "\($0.source)→\($0.destination)" } == ["v1→v2", "v2→v3"])
            let counted = plan.counted(["Book": 7])
            #expect(counted.steps.map { $0.mapping.entity(named: "Book")?.objectCount } == [7, 7])
            #expect(counted.text.contains("Book (7 objects):\n    author: added (String), starts empty"))
            #expect(counted.outcome == "Can be migrated in 2 steps; every value is kept.")
            // A plan to an earlier version walks back, one step at a time.
            let back = try MigrationPlan(versions: versions, from: "v3", to: "v1", route: .everyVersion)
            #expect(back.isBackward && back.steps.map(\.destination) == ["v2", "v1"])
            #expect(back.text.contains("v1 comes before v3 in the bundle"))
        }

        @Test func theStoresOwnVersionNeedsNoStep() throws {
            let versions = F.versions(try F.book(AttributeDescription("title", .string)))
            let plan = try MigrationPlan(versions: versions, from: "v1")
            #expect(plan.steps.isEmpty && plan.outcome == "Nothing to migrate: the store is at v1.")
        }

        /// Versions with one set of hashes are one model: the chain passes through them
        /// from the first one reached, whatever renaming identifiers the others carry (wire's
        /// 2.47.0 put an attribute's identifier on its entity, which 2.46.0, identical to it,
        /// does not have).
        @Test func identicalVersionsArePassedOver() throws {
            let v1 = try F.book(AttributeDescription("title", .string))
            let v2 = try ManagedObjectModel(entities: [F.renamed(EntityDescription("Book", attributes: [AttributeDescription("title", .string)]), from: "timeout")])
            let v3 = try F.book(AttributeDescription("title", .string), AttributeDescription("year", .integer16))
            #expect(ModelVersions.Version(name: "v1", model: v1).versionHashes == ModelVersions.Version(name: "v2", model: v2).versionHashes)
            let versions = F.versions(v1, v2, v3)
            #expect(versions.identicalVersions(to: "v1") == ["v2"])
            let plan = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion)
            #expect(plan.steps.count == 1 && plan.steps[0].source == "v1" && plan.steps[0].skipped == ["v2"])
            #expect(plan.steps[0].mapping.entity(named: "Book")?.source == "Book")
            #expect(plan.text.contains("passing over v2"))
            // Ending at an identical version: a step that changes nothing but the metadata,
            // its elements paired by name.
            let toTwin = try MigrationPlan(versions: versions, from: "v1", to: "v2")
            #expect(toTwin.steps.count == 1 && toTwin.steps[0].hasIdenticalHashes && !toTwin.isRefused)
            #expect(toTwin.steps[0].mapping.entity(named: "Book")?.source == "Book")
            #expect(toTwin.text.contains("the same model to Core Data"))
        }

        @Test func oneRefusedStepRefusesThePlan() throws {
            let versions = F.versions(
                try F.book(AttributeDescription("title", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("year", .integer16)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("year", .string)))
            let plan = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion).counted(["Book": 1])
            #expect(plan.isRefused && plan.refusals.count == 1 && plan.refusals[0].place == "Book.year")
            #expect(plan.outcome.hasPrefix("Refused at step 2 (v2 → v3): Book.year: changes type from Integer 16 to String"))
            // The one inferred step never meets v2's Integer 16: a String is added.
            #expect(!(try MigrationPlan(versions: versions, from: "v1").counted(["Book": 1]).isRefused))
            #expect(plan.text.contains("  refused (134140): Book.year: changes type"))
        }

        @Test func droppedValuesAreListedInTheOutcome() throws {
            let versions = F.versions(
                try ManagedObjectModel {
                    EntityDescription("Book") { AttributeDescription("title", .string); AttributeDescription("author", .string) }
                    EntityDescription("Draft") { AttributeDescription("text", .string) }
                },
                try F.book(AttributeDescription("title", .string)))
            let plan = try MigrationPlan(versions: versions, from: "v1").counted(["Book": 3, "Draft": 2])
            #expect(plan.outcome == "Can be migrated in 1 step; dropped: the 2 objects of Draft (step 1), Book.author (step 1).")
            #expect(plan.text.contains("  Draft: removed, 2 objects dropped"))
            #expect(plan.text.contains("    author: removed (String attribute); its values are dropped"))
        }

        @Test func missingAndUnknownVersionsAreErrors() throws {
            let versions = F.versions(try F.book(AttributeDescription("title", .string)))
            #expect(throws: MigrationError.unknownVersion(bundle: "built", requested: "v9", available: ["v1"])) {
                try MigrationPlan(versions: versions, from: "v1", to: "v9")
            }
            let noCurrent = ModelVersions(path: "built", versions: versions.versions, currentVersion: "gone")
            #expect(throws: MigrationError.unknownVersion(bundle: "built", requested: "gone", available: ["v1"])) {
                try MigrationPlan(versions: noCurrent, from: "v1")
            }
            #expect(MigrationError.noCurrentVersion(bundle: "b").code == 134130)
        }

        /// A bundle on disk: every version read, one that cannot be read set aside with its
        /// error, and a walk through it refused with that error (the one inferred step
        /// does not need it).
        @Test func unreadableVersionsAreSetAside() throws {
            let bundle = try Fixtures.temporaryDirectory().appendingPathComponent("App.xcdatamodeld")
            let good = #"<?xml version="1.0"?><model><entity name="Book"><attribute name="title" optional="YES" attributeType="String"/></entity></model>"#
            for (name, text) in [("App", good), ("App 2", "not xml"), ("App 3", good)] {
                let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: folder.appendingPathComponent("contents"))
            }
            let versions = try ModelVersions(path: bundle.path)
            #expect(versions.names == ["App", "App 2", "App 3"] && versions.versions.map(\.name) == ["App", "App 3"])
            #expect(versions.unreadable["App 2"] != nil && versions.currentVersion == nil)
            #expect(throws: MigrationError.noCurrentVersion(bundle: bundle.path)) { try MigrationPlan(versions: versions, from: "App") }
            #expect(try MigrationPlan(versions: versions, from: "App", to: "App 3").steps.count == 1)
            do {
                _ = try MigrationPlan(versions: versions, from: "App", to: "App 3", route: .everyVersion)
                Issue.record("a walk through an unreadable version was planned")
            } catch {
                guard case .unreadableVersion(let name, _) = error else { throw error }
                #expect(name == "App 2")
            }
        }

        /// A renaming identifier changed mid-chain: the walk drops the values at that step,
        /// while Core Data's one mapping from the store's version carries them; the plan says so.
        @Test func theWalkNamesValuesOnlyCoreDatasOneMappingCarries() throws {
            let retagged = F.renamed(AttributeDescription("a", .string), from: "x")
            let versions = F.versions(
                try F.book(AttributeDescription("a", .string)),
                try F.book(retagged, AttributeDescription("c", .string)),
                try F.book(F.renamed(AttributeDescription("b", .string), from: "a"), AttributeDescription("c", .string)))
            let plan = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion).counted(["Book": 1])
            #expect(plan.steps.count == 2 && !plan.isRefused)
            #expect(plan.valuesOnlyCoreDataCarries == ["Book.b (from a)"])
            #expect(plan.text.contains("Core Data infers one mapping, v1 → v3, which carries the store's values into Book.b (from a); these steps start it afresh."), "\(plan.text)")
            // The one inferred step carries them, and has nothing to add.
            let straight = try MigrationPlan(versions: versions, from: "v1").counted(["Book": 1])
            #expect(straight.steps[0].mapping.entity(named: "Book")?.attributes.first { $0.name == "b" }?.source == "a")
            #expect(straight.valuesOnlyCoreDataCarries.isEmpty && straight.valuesOnlyTheWalkCarries.isEmpty)
            // A walk that agrees with the one mapping says nothing.
            let plain = F.versions(try F.book(AttributeDescription("a", .string)), try F.book(AttributeDescription("a", .string), AttributeDescription("c", .string)),
                try F.book(F.renamed(AttributeDescription("b", .string), from: "a"), AttributeDescription("c", .string)))
            let agreeing = try MigrationPlan(versions: plain, from: "v1", route: .everyVersion).counted(["Book": 1])
            #expect(agreeing.valuesOnlyCoreDataCarries.isEmpty && !agreeing.text.contains("Core Data infers one mapping"))
        }

        /// A mapping model whose snapshots are a step's two versions fits that step: Core Data
        /// runs it instead of inferring the step, so the step runs it and inference's own
        /// refusals there (a type change to text) do not apply. The one step past it says a
        /// walk would meet it.
        @Test func aMappingModelThatFitsAStepIsNamedAndRun() throws {
            let (v1, v2, v3) = (
                try F.book(AttributeDescription("title", .string)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("year", .integer16)),
                try F.book(AttributeDescription("title", .string), AttributeDescription("year", .string)))
            let versions = F.versions(v1, v2, v3)
            let mapping = MappingModel(sourceModel: v2, destinationModel: v3, entityMappings: [])
            let candidate = MappingModelCandidate(path: "/app/YearAsText.xcmappingmodel", mappingModel: mapping, fit: MappingModelFit(mapping: mapping, versions: versions))
            #expect(candidate.versions?.source == "v2" && candidate.versions?.destination == "v3")
            let walk = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion).counted(["Book": 1]).using([candidate])
            #expect(walk.steps.map(\.mappingModel) == [nil, "/app/YearAsText.xcmappingmodel"])
            #expect(walk.refusals.isEmpty)
            #expect(walk.outcome == "Can be migrated in 2 steps; step 2 runs YearAsText.xcmappingmodel, which keeps what its mappings make.")
            #expect(walk.text.contains("Step 2: v2 → v3 (mapping model YearAsText.xcmappingmodel)"))
            let straight = try MigrationPlan(versions: versions, from: "v1").counted(["Book": 1]).using([candidate])
            #expect(!straight.isRefused && straight.steps[0].mappingModel == nil)
            #expect(straight.text.contains("  mapping models: YearAsText.xcmappingmodel (v2 → v3)\n  no step of this plan is v2 → v3, so Core Data infers it without that mapping model; migrate --walk goes through each version and meets it"), "\(straight.text)")
            // A snapshot that is no version: listed with the nearest version and what differs.
            let edited = MappingModel(sourceModel: try F.book(AttributeDescription("subtitle", .string)), destinationModel: v3, entityMappings: [])
            let stale = MigrationPlan.FoundMappingModel(MappingModelCandidate(path: "/app/Old.xcmappingmodel", mappingModel: edited, fit: MappingModelFit(mapping: edited, versions: versions)))
            #expect(stale.source == nil && stale.problem?.hasPrefix("its source snapshot is no version of the bundle (nearest v1: attribute Book.subtitle: in the mapping model's source snapshot, not in this version") == true, "\(stale.problem ?? "")")
        }

        /// Renames chain along a walk (a → b in v2, b → c in v3) but not in the one step,
        /// whose c names b, which v1 does not have: the one step starts c afresh and says
        /// that a walk would carry it; a whole entity renamed twice likewise.
        @Test func theOneStepNamesValuesOnlyAWalkCarries() throws {
            let versions = F.versions(
                try F.book(AttributeDescription("a", .string)),
                try F.book(F.renamed(AttributeDescription("b", .string), from: "a")),
                try F.book(F.renamed(AttributeDescription("c", .string), from: "b")))
            let plan = try MigrationPlan(versions: versions, from: "v1").counted(["Book": 2])
            #expect(plan.steps.count == 1 && plan.steps[0].mapping.entity(named: "Book")?.attributes.first { $0.name == "c" }?.source == nil)
            #expect(plan.valuesOnlyTheWalkCarries == ["Book.c (from a)"])
            #expect(plan.text.contains("Walking every version (migrate --walk) would carry Book.c (from a), through renaming identifiers that chain"), "\(plan.text)")
            #expect(plan.outcome == "Can be migrated in 1 step; dropped: Book.a (step 1).")
            let walk = try MigrationPlan(versions: versions, from: "v1", route: .everyVersion).counted(["Book": 2])
            // v2's b has the identifier a, so c's names b's name, not its identifier: the walk's
            // pairing is Core Data's uncertain case, and it says so.
            #expect(walk.outcome == "Can be migrated in 2 steps; every value is kept; 1 rename rests on a renaming identifier that names the old name (uncertain in Core Data).", "\(walk.outcome)")
            #expect(walk.valuesOnlyTheWalkCarries.isEmpty)

            let entities = F.versions(
                try ManagedObjectModel(entities: [EntityDescription("A", attributes: [AttributeDescription("t", .string)])]),
                try ManagedObjectModel(entities: [F.renamed(EntityDescription("B", attributes: [AttributeDescription("t", .string)]), from: "A")]),
                try ManagedObjectModel(entities: [F.renamed(EntityDescription("C", attributes: [AttributeDescription("t", .string)]), from: "B")]))
            let straight = try MigrationPlan(versions: entities, from: "v1").counted(["A": 3])
            #expect(straight.valuesOnlyTheWalkCarries == ["the objects of C (from A)"])
            #expect(straight.outcome == "Can be migrated in 1 step; dropped: the 3 objects of A (step 1).")
        }
    }
}
