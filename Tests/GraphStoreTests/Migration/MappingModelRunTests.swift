import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// Running mapping models on built models: the seed's entity split (a book's author
    /// name becomes an Author object), with value expressions through `$source`,
    /// `$manager`, `$entityPolicy` and a registered class, Swift policies found by name with
    /// or without a module, the three stages in Core Data's order, batches smaller than
    /// the store, and a store left as it was when anything fails. Serialized: the test
    /// policy records its calls in static state.
    @Suite(.serialized) struct MappingModelRunTests {
        typealias F = MigrationFixtures

        static func v1() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription("Book", attributes: [AttributeDescription("title", .string), AttributeDescription("authorName", .string)])
            ])
        }

        static func v2(lastNameRequired: Bool = false) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription("Book", attributes: [AttributeDescription("title", .string)], relationships: [
                    RelationshipDescription("author", to: "Author", inverse: "books")
                ]),
                EntityDescription("Author", attributes: [
                    AttributeDescription("firstName", .string), AttributeDescription("lastName", .string, optional: !lastNameRequired),
                ], relationships: [RelationshipDescription("books", to: "Book", inverse: "author", toMany: true)]),
            ])
        }

        static func property(_ name: String, _ expression: String? = nil) -> MappingModel.PropertyMapping {
            MappingModel.PropertyMapping(name: name, valueExpression: expression, sourceKeyPath: nil, sourceMappingName: nil)
        }

        /// The split: BookToBook keeps the title (generated `$source.title`) and links the
        /// author BookToAuthor made from the same book; BookToAuthor makes an author whose
        /// first name a registered class gives and whose last name the policy's function gives.
        static func split(from v1: ManagedObjectModel, to v2: ManagedObjectModel, policy: String? = "App.AuthorPolicy") -> MappingModel {
            MappingModel(
                sourceModel: v1, destinationModel: v2, sourceModelPath: nil, destinationModelPath: nil,
                entityMappings: [
                    MappingModel.EntityMapping(
                        name: "BookToBook", kind: .copy, sourceEntity: "Book", destinationEntity: "Book", policyClassName: nil,
                        sourceFilter: nil, userInfo: [:], attributeMappings: [property("title")],
                        relationshipMappings: [property("author",
                            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToAuthor", $source)"#)]),
                    MappingModel.EntityMapping(
                        name: "BookToAuthor", kind: .custom, sourceEntity: "Book", destinationEntity: "Author", policyClassName: policy,
                        sourceFilter: "authorName != nil", userInfo: ["origin": "seed"],
                        attributeMappings: [
                            property("firstName", #"FUNCTION(CAST("NameParts", "Class"), "first:", $source.authorName)"#),
                            property("lastName", #"FUNCTION($entityPolicy, "lastName:", $source.authorName)"#),
                        ],
                        relationshipMappings: [property("books",
                            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source)"#)]),
                ])
        }

        /// A store of v1 with these (title, author name) books.
        static func store(_ books: [(String, String?)]) throws -> String {
            let path = try F.store(of: try v1())
            let store = try PersistentStore(path: path, model: try v1(), readOnly: false)
            let context = ManagedObjectContext(store: store)
            for (title, author) in books {
                let book = try context.insert("Book")
                try book.set("title", title)
                try book.set("authorName", author)
            }
            try context.save()
            return path
        }

        static func manager(_ mapping: MappingModel, _ versions: ModelVersions, policies: MigrationPolicies) -> MigrationManager {
            let candidate = MappingModelCandidate(
                path: "/built/Split.xcmappingmodel", mappingModel: mapping, fit: MappingModelFit(mapping: mapping, versions: versions))
            return MigrationManager(versions: versions, mappingModels: [candidate], policies: policies)
        }

        static func policies() -> MigrationPolicies {
            var policies = MigrationPolicies()
            policies.register(AuthorPolicy.self)
            policies.register(functions: [
                "first:": { arguments in
                    .string(String(arguments.first?.stringValue?.split(separator: " ").first ?? ""))
                }
            ], forClassNamed: "App.NameParts")
            return policies
        }

        @Test func splitsAnEntityThroughExpressionsPoliciesAndRegisteredClasses() throws {
            let books = (1...25).map { ("Book \($0)", $0 == 7 ? nil : "Ada\($0 % 4) Lovelace\($0)") }
            let path = try Self.store(books)
            let versions = F.versions(try Self.v1(), try Self.v2())
            AuthorPolicy.calls = []
            let manager = Self.manager(Self.split(from: try Self.v1(), to: try Self.v2()), versions, policies: Self.policies())
            let plan = try manager.plan(forStoreAt: path)
            #expect(plan.steps.first?.mappingModel == "/built/Split.xcmappingmodel")
            #expect(plan.refusals.isEmpty)
            // A framework table, as Core Data makes for persistent history: the mapping's new
            // file does not hold it, and the plan says so.
            let connection = try Connection(path: path, mode: .readWrite)
            try connection.executeScript("""
                CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
                INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16002, 'Transaction', 0, 0);
                """)
            #expect(try manager.plan(forStoreAt: path).text.contains(
                "  not carried: the framework's ATRANSACTION (persistent history), which a mapping model's step does not copy"))
            // Batches of 4: every save lets go of the objects, and links are found on disk.
            try manager.migrate(storeAt: path, options: .init(keepsBackup: false, mappingBatchSize: 4))
            #expect(!FileManager.default.fileExists(atPath: path + ".migrating-associations"))

            let store = try PersistentStore(path: path, model: try Self.v2())
            let context = ManagedObjectContext(store: store)
            let migrated = try context.fetch("Book")
            #expect(migrated.count == 25)
            for book in migrated {
                let title = try #require(try book.get("title", as: String.self))
                let number = try #require(Int(title.dropFirst("Book ".count)))
                let author = try book.object(forKey: "author")
                if number == 7 {
                    #expect(author == nil)   // the filter leaves out a book without an author name
                    continue
                }
                let found = try #require(author)
                #expect(try found.get("firstName", as: String.self) == "Ada\(number % 4)")
                #expect(try found.get("lastName", as: String.self) == "Lovelace\(number)")
                #expect(try found.objects(forKey: "books").map(\.objectID) == [book.objectID])
            }
            #expect(try context.fetch("Author").count == 24)
            // Core Data's order: every mapping makes its objects, then every mapping links
            // them, then validation and the end.
            #expect(AuthorPolicy.calls == [
                "begin BookToAuthor seed", "endInstanceCreation BookToAuthor", "endRelationshipCreation BookToAuthor",
                "performCustomValidation BookToAuthor", "end BookToAuthor",
            ])
            #expect(AuthorPolicy.made == 24)
        }

        /// The relationship stage visits the objects a mapping made before it began: those a
        /// policy makes and associates during it are not linked again.
        @Test func objectsAPolicyMakesWhileLinkingAreNotLinkedAgain() throws {
            let path = try Self.store((1...10).map { ("Book \($0)", "Ada Lovelace\($0)") })
            let versions = F.versions(try Self.v1(), try Self.v2())
            var mapping = Self.split(from: try Self.v1(), to: try Self.v2(), policy: "App.CoAuthorPolicy")
            mapping.entityMappings[1].attributeMappings[1] = Self.property("lastName", #""Lovelace""#)
            var policies = Self.policies()
            policies.register(CoAuthorPolicy.self)
            CoAuthorPolicy.linked = 0
            try Self.manager(mapping, versions, policies: policies).migrate(storeAt: path, options: .init(keepsBackup: false, mappingBatchSize: 3))
            #expect(CoAuthorPolicy.linked == 10)
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: try Self.v2()))
            #expect(try context.fetch("Author").count == 20)
        }

        @Test func aValidationFailureNamesEveryObjectAndLeavesTheStoreAsItWas() throws {
            let path = try Self.store([("Republic", "Plato"), ("Ethics", "Baruch Spinoza"), ("Poetics", "Aristotle")])
            let before = Fixtures.fingerprint(path)
            let versions = F.versions(try Self.v1(), try Self.v2(lastNameRequired: true))
            let manager = Self.manager(Self.split(from: try Self.v1(), to: try Self.v2(lastNameRequired: true)), versions, policies: Self.policies())
            let error = #expect(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            guard case .validationFailed(_, let failures) = error else {
                Issue.record("expected a validation failure, not \(String(describing: error))")
                return
            }
            #expect(failures.count == 2, "\(failures)")
            #expect(failures.allSatisfy { $0.contains("lastName") })
            #expect(Fixtures.fingerprint(path) == before)
            #expect(!FileManager.default.fileExists(atPath: MigrationManager.backupPath(for: path)))
            #expect(!FileManager.default.fileExists(atPath: path + ".migrating-associations"))
        }

        @Test func anUnregisteredPolicyIsRefusedByNameBeforeAnythingRuns() throws {
            let path = try Self.store([("Republic", "Plato")])
            let before = Fixtures.fingerprint(path)
            let versions = F.versions(try Self.v1(), try Self.v2())
            var policies = Self.policies()
            policies.register(OtherPolicy.self, as: "Songbook.OtherPolicy")
            let manager = Self.manager(Self.split(from: try Self.v1(), to: try Self.v2(), policy: "App.MissingPolicy"), versions, policies: policies)
            let plan = try manager.plan(forStoreAt: path)
            let refusal = try #require(plan.refusals.first)
            #expect(refusal.entity == "Split.xcmappingmodel: BookToAuthor")
            #expect(refusal.reason.contains("App.MissingPolicy"))
            #expect(refusal.reason.contains("registered: AuthorPolicy, OtherPolicy"))
            #expect(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            #expect(Fixtures.fingerprint(path) == before)
        }

        @Test func aMappingThatDoesNotMatchTheVersionsIsRefusedNamingTheMappingSideAndProperty() throws {
            let path = try Self.store([("Republic", "Plato")])
            let versions = F.versions(try Self.v1(), try Self.v2())
            var mapping = Self.split(from: try Self.v1(), to: try Self.v2())
            mapping.entityMappings[0].attributeMappings.append(Self.property("subtitle", "$source.title"))
            mapping.entityMappings[1].attributeMappings[1] = Self.property("lastName", "$source.surname")
            mapping.entityMappings[0].relationshipMappings[0] = Self.property("author",
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToWriter", $source)"#)
            let plan = try Self.manager(mapping, versions, policies: Self.policies()).plan(forStoreAt: path)
            let reasons = plan.refusals.map(\.description)
            #expect(reasons.contains { $0.hasPrefix("Split.xcmappingmodel: BookToBook.subtitle: maps an attribute Book of the destination version does not have") })
            #expect(reasons.contains { $0.hasPrefix("Split.xcmappingmodel: BookToAuthor.lastName: reads $source.surname, which Book of the source version does not have") })
            #expect(reasons.contains { $0.hasPrefix("Split.xcmappingmodel: BookToBook.author: names the entity mapping BookToWriter, which the file does not have") })
        }

        @Test func aFailingExpressionNamesTheMappingAndTheObjectAndWritesNothing() throws {
            let path = try Self.store([("Republic", "Plato")])
            let before = Fixtures.fingerprint(path)
            let versions = F.versions(try Self.v1(), try Self.v2())
            var mapping = Self.split(from: try Self.v1(), to: try Self.v2())
            mapping.entityMappings[1].attributeMappings[1] = Self.property("lastName", #"FUNCTION($entityPolicy, "nickname:", $source.authorName)"#)
            let manager = Self.manager(mapping, versions, policies: Self.policies())
            let error = #expect(throws: MigrationRunError.self) { try manager.migrate(storeAt: path) }
            guard case .mappingFailed(let file, let name, let object, let reason) = error else {
                Issue.record("expected a mapping failure, not \(String(describing: error))")
                return
            }
            #expect(file == "Split.xcmappingmodel")
            #expect(name == "BookToAuthor")
            #expect(object?.hasPrefix("source Book/p") == true)
            #expect(reason.contains("nickname:"))
            #expect(Fixtures.fingerprint(path) == before)
            #expect(!FileManager.default.fileExists(atPath: path + ".migrating"))
        }
    }
}

/// The test's policy: records its hooks, answers `lastName:`, and makes each author with
/// Core Data's default.
final class AuthorPolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var calls: [String] = []
    nonisolated(unsafe) static var made = 0

    override func begin(_ mapping: MappingModel.EntityMapping, with manager: MappingMigrationManager) throws {
        AuthorPolicy.made = 0
        AuthorPolicy.calls.append("begin \(mapping.name) \(mapping.userInfo["origin"] ?? "")")
    }

    override func createDestinationInstances(
        forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        #expect(try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).count == 1)
        AuthorPolicy.made += 1
    }

    override func endInstanceCreation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {
        AuthorPolicy.calls.append("endInstanceCreation \(mapping.name)")
    }

    override func endRelationshipCreation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {
        AuthorPolicy.calls.append("endRelationshipCreation \(mapping.name)")
    }

    override func performCustomValidation(forMapping mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {
        AuthorPolicy.calls.append("performCustomValidation \(mapping.name)")
    }

    override func end(_ mapping: MappingModel.EntityMapping, manager: MappingMigrationManager) throws {
        AuthorPolicy.calls.append("end \(mapping.name)")
    }

    override func perform(function selector: String, arguments: [PredicateValue], manager: MappingMigrationManager) throws -> PredicateValue {
        guard selector == "lastName:" else { return try super.perform(function: selector, arguments: arguments, manager: manager) }
        let words = arguments.first?.stringValue?.split(separator: " ") ?? []
        return words.count > 1 ? .string(String(words[words.count - 1])) : .null
    }
}

/// Another registered policy, so that a refusal lists more than one.
final class OtherPolicy: EntityMigrationPolicy {}

/// A policy that, linking each author, makes a co-author from the same book and associates
/// it under the same mapping, as a policy may during the relationship stage.
final class CoAuthorPolicy: EntityMigrationPolicy {
    nonisolated(unsafe) static var linked = 0

    override func createRelationships(
        forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MappingMigrationManager
    ) throws {
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
        CoAuthorPolicy.linked += 1
        guard try destination.get("firstName", as: String.self) != "Co",
            let source = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination]).first
        else { return }
        let coAuthor = try manager.destinationContext.insert("Author")
        try coAuthor.set("firstName", "Co")
        try manager.associate(sourceInstance: source, withDestinationInstance: coAuthor, for: mapping)
    }
}
