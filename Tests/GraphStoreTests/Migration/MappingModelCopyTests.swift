import Foundation
import Testing
@testable import GraphStore

extension MigrationTests {
    /// A mapping model that only copies values runs as SQL (``MappingModelCopy``) and gives
    /// the store the object-by-object run gives: every value, every link, every order, on a
    /// model with a to-one, a one-to-many, a many-to-many, an ordered to-many, sub-entities,
    /// a renamed attribute and a new one with its default. Any mapping that does more than
    /// copy sends the step object by object, and the plan says why.
    struct MappingModelCopyTests {
        typealias F = MigrationFixtures

        /// Book's relationships, the same in both versions.
        static let bookRelationships = [
            RelationshipDescription("author", to: "Author", inverse: "books"),
            RelationshipDescription("tags", to: "Tag", inverse: "books", toMany: true),
            RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, ordered: true),
        ]

        /// The entities both versions have as they are.
        static let unchanged = [
            EntityDescription("Tag", attributes: [AttributeDescription("label", .string)],
                relationships: [RelationshipDescription("books", to: "Book", inverse: "tags", toMany: true)]),
            EntityDescription("Page", attributes: [AttributeDescription("number", .integer32)],
                relationships: [RelationshipDescription("book", to: "Book", inverse: "pages")]),
            EntityDescription("Plate", parent: "Page", attributes: [AttributeDescription("caption", .string)]),
        ]

        static func v1() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription("Author", attributes: [AttributeDescription("name", .string), AttributeDescription("born", .integer16)],
                    relationships: [RelationshipDescription("books", to: "Book", inverse: "author", toMany: true)]),
                EntityDescription("Book", attributes: [AttributeDescription("title", .string), AttributeDescription("price", .double)],
                    relationships: bookRelationships),
            ] + unchanged)
        }

        /// `title` becomes `name` (by the mapping, not a renaming identifier), `rating` is new
        /// with a default, `born` is dropped.
        static func v2() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription("Author", attributes: [AttributeDescription("name", .string)],
                    relationships: [RelationshipDescription("books", to: "Book", inverse: "author", toMany: true)]),
                EntityDescription("Book", attributes: [
                    AttributeDescription("name", .string), AttributeDescription("price", .double),
                    AttributeDescription("rating", .integer16, default: .integer(3)),
                ], relationships: bookRelationships),
            ] + unchanged)
        }

        static func property(_ name: String, _ expression: String? = nil) -> MappingModel.PropertyMapping {
            MappingModel.PropertyMapping(name: name, valueExpression: expression)
        }

        static func made(by mapping: String, from keyPath: String) -> String {
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "\#(mapping)", \#(keyPath))"#
        }

        /// As Xcode makes it: every property by name (generated expressions), `name` from
        /// `title`; relationships set on one side only where `oneSided`.
        static func mappingModel(bookName: String = "$source.title", oneSided: Bool = false, change: (inout [MappingModel.EntityMapping]) -> Void = { _ in }) throws -> MappingModel {
            var mappings: [MappingModel.EntityMapping] = [
                .init(name: "AuthorToAuthor", sourceEntity: "Author", destinationEntity: "Author", attributeMappings: [property("name")],
                    relationshipMappings: oneSided ? [] : [property("books")]),
                .init(name: "BookToBook", sourceEntity: "Book", destinationEntity: "Book",
                    attributeMappings: [property("name", bookName), property("price"), property("rating")],
                    relationshipMappings: [property("author", made(by: "AuthorToAuthor", from: "$source.author")), property("tags"), property("pages")]),
                .init(name: "TagToTag", sourceEntity: "Tag", destinationEntity: "Tag", attributeMappings: [property("label")],
                    relationshipMappings: oneSided ? [] : [property("books")]),
                .init(name: "PageToPage", sourceEntity: "Page", destinationEntity: "Page", attributeMappings: [property("number")],
                    relationshipMappings: oneSided ? [] : [property("book")]),
                .init(name: "PlateToPlate", sourceEntity: "Plate", destinationEntity: "Plate",
                    attributeMappings: [property("number"), property("caption")], relationshipMappings: oneSided ? [] : [property("book")]),
            ]
            change(&mappings)
            return MappingModel(sourceModel: try v1(), destinationModel: try v2(), entityMappings: mappings)
        }

        /// A store of v1: 3 authors, 12 books (one without an author, one without a title),
        /// 4 tags shared among them, pages and plates in a stored order.
        static func store() throws -> String {
            let path = try F.store(of: try v1())
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: try v1(), readOnly: false))
            let authors = try (0..<3).map { index -> ManagedObject in
                let author = try context.insert("Author")
                try author.set("name", "Author \(index)")
                try author.set("born", Int16(1900 + index))
                return author
            }
            let tags = try (0..<4).map { index -> ManagedObject in
                let tag = try context.insert("Tag")
                try tag.set("label", "tag\(index)")
                return tag
            }
            for index in 0..<12 {
                let book = try context.insert("Book")
                try book.set("title", index == 5 ? nil : "Book \(index)")
                try book.set("price", Double(index) + 0.25)
                if index != 7 { try book.setObject(authors[index % 3], forKey: "author") }
                try book.setObjects(tags.enumerated().filter { ($0.offset + index) % 3 == 0 }.map(\.element), forKey: "tags")
                var pages: [ManagedObject] = []
                for number in (0..<(index % 4)).reversed() {
                    let page = try context.insert(number == 1 ? "Plate" : "Page")
                    try page.set("number", Int32(index * 10 + number))
                    if number == 1 { try page.set("caption", "plate of \(index)") }
                    pages.append(page)
                }
                try book.setObjects(pages, forKey: "pages")
            }
            try context.save()
            return path
        }

        static func manager(_ mapping: MappingModel) throws -> MigrationManager {
            let versions = F.versions(try v1(), try v2())
            let candidate = MappingModelCandidate(path: "/built/Library.xcmappingmodel", mappingModel: mapping, versions: versions)
            return MigrationManager(versions: versions, mappingModels: [candidate])
        }

        /// Every object of the store: its entity and attributes, then its relationships'
        /// destinations (in order where ordered, sorted otherwise), each object named by its
        /// one unique value, not its key (the object-by-object run numbers objects afresh).
        static func contents(of path: String) throws -> [String] {
            let model = try v2()
            let context = ManagedObjectContext(store: try PersistentStore(path: path, model: model))
            let identity = ["Author": "name", "Book": "price", "Tag": "label", "Page": "number", "Plate": "number"]
            func name(_ object: ManagedObject?) throws -> String {
                guard let object, let key = identity[object.entity.name] else { return "nil" }
                return try object.value(forKey: key).map { "\($0)" } ?? "nil"
            }
            var lines: [String] = []
            for entity in model.entities {
                var request = FetchRequest<ManagedObject>(entityName: entity.name)
                request.includesSubentities = false
                for object in try context.fetch(request) {
                    var fields = [entity.name]
                    for attribute in model.attributes(of: entity.name) {
                        fields.append("\(attribute.name)=\(try object.value(forKey: attribute.name).map { "\($0)" } ?? "nil")")
                    }
                    for relationship in model.relationships(of: entity.name) {
                        let names = try relationship.isToMany
                            ? object.objects(forKey: relationship.name).map(name)
                            : [try name(object.object(forKey: relationship.name))]
                        fields.append("\(relationship.name)=\(relationship.isOrdered ? names : names.sorted())")
                    }
                    lines.append(fields.joined(separator: " "))
                }
            }
            return lines.sorted()
        }

        /// Migrates a fresh copy of the store both ways and returns both contents.
        static func bothWays(_ mapping: MappingModel) throws -> (sql: [String], objects: [String]) {
            let original = try store()
            var results: [[String]] = []
            for withSQL in [true, false] {
                let path = try F.store(of: try v1())
                StoreReplacement.remove(path)
                try FileManager.default.copyItem(atPath: original, toPath: path)
                let outcome = try manager(mapping).migrate(storeAt: path, options: .init(keepsBackup: false, copiesMappingModelsWithSQL: withSQL))
                #expect(outcome.plan.steps.first?.mappingModel == "/built/Library.xcmappingmodel")
                results.append(try contents(of: path))
            }
            return (results[0], results[1])
        }

        @Test func aMappingModelThatOnlyCopiesRunsAsSQLAndGivesTheObjectByObjectStore() throws {
            let mapping = try Self.mappingModel()
            let copy = MappingModelCopy(mapping, source: try Self.v1(), destination: try Self.v2())
            #expect(copy.reason == nil)
            #expect(copy.plan?.entities.first { $0.name == "Book" }?.attributes["name"]?.source == "title")
            let (sql, objects) = try Self.bothWays(mapping)
            #expect(sql == objects)
            #expect(sql.count == 3 + 12 + 4 + 18)
            // Values the expressions give, the new attribute's default, links and order.
            let book1 = try #require(sql.first { $0.hasPrefix("Book ") && $0.contains("name=Book 1 ") })
            #expect(book1.contains("rating=3"))
            #expect(book1.contains("price=1.25"))
            #expect(sql.contains { $0.hasPrefix("Book ") && $0.contains("name=nil") })
            #expect(sql.filter { $0.hasPrefix("Plate ") }.allSatisfy { $0.contains("caption=plate of") })
            let plan = try Self.manager(mapping).plan(forStoreAt: try Self.store())
            #expect(plan.steps.first?.mappingRun == .copiesWithSQL)
            #expect(plan.text.contains("  runs as SQL: every mapping only copies values (one INSERT … SELECT per entity, keys kept)"))
        }

        @Test func oneSideOfEachRelationshipMappedCarriesTheLinksBothWays() throws {
            let (sql, objects) = try Self.bothWays(try Self.mappingModel(oneSided: true))
            #expect(sql == objects)
            // The authors' books were not mapped, yet they come through the books' authors.
            let author = try #require(sql.first { $0.hasPrefix("Author ") })
            #expect(!author.contains("books=[]"))
            #expect(sql.filter { $0.hasPrefix("Tag ") }.contains { !$0.contains("books=[]") })
        }

        @Test func aMappingThatDoesMoreThanCopyRunsObjectByObjectAndThePlanSaysWhy() throws {
            let cases: [(MappingModel, String)] = [
                (try Self.mappingModel(bookName: "FUNCTION($source.title, 'uppercaseString')"),
                 #"BookToBook: name = FUNCTION($source.title, 'uppercaseString') is not an attribute of the source object"#),
                (try Self.mappingModel(bookName: "$source.price"), "BookToBook: name = $source.price changes the value's type or storage"),
                (try Self.mappingModel { $0[1].sourceFilter = "price > 2" }, "BookToBook takes only the objects where price > 2"),
                (try Self.mappingModel { $0[1].policyClassName = "App.BookPolicy" }, "BookToBook has the policy App.BookPolicy"),
                (try Self.mappingModel { $0.remove(at: 4) }, "BookToBook: pages = "),
                (try Self.mappingModel { $0[4].destinationEntity = "Page" }, "PageToPage and PlateToPlate both make Page objects"),
            ]
            for (mapping, reason) in cases {
                let copy = MappingModelCopy(mapping, source: try Self.v1(), destination: try Self.v2())
                #expect(copy.plan == nil)
                #expect(copy.reason?.contains(reason) == true, "\(copy.reason ?? "nil") lacks \(reason)")
            }
            // A named default policy still copies.
            let named = try Self.mappingModel { $0[0].policyClassName = "NSEntityMigrationPolicy" }
            #expect(MappingModelCopy(named, source: try Self.v1(), destination: try Self.v2()).reason == nil)
            let plan = try Self.manager(cases[0].0).plan(forStoreAt: try Self.store())
            #expect(plan.text.contains("  runs object by object, as Core Data does: BookToBook: name = FUNCTION"))
        }
    }
}
