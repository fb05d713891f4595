import Foundation
import Testing
@testable import GraphStore
@testable import GraphStoreModel

extension ModelIOTests {
    /// The `Z_MODELCACHE` decoder on a hand-built archive (everything the corpus caches do not
    /// show) and on damaged input.
    @Suite struct ModelCacheDecoderTests {
        private func decoded() throws -> ModelCache {
            let (builder, root) = try ModelArchiveFixture.archive()
            return try ModelCache(compressed: builder.compressed(root: root))
        }

        @Test func entitiesInheritanceAndModelLevelParts() throws {
            let cache = try decoded()
            let model = cache.model
            #expect(model.entities.map(\.name) == ["Author", "Book", "Writer"])
            #expect(model.versionIdentifiers == ["7"])
            let writer = try #require(model.entity(named: "Writer"))
            #expect(writer.isAbstract && writer.parent == nil && writer.className == "Writer")
            #expect(writer.userInfo == ["role": "base"])
            let author = try #require(model.entity(named: "Author"))
            #expect(author.parent == "Writer" && !author.isAbstract && author.className == nil)
            #expect(author.renamingIdentifier == "Pen")
            // Inherited properties (a proxy and a copy) are not declared again.
            #expect(author.attributes.map(\.name) == ["alias"])
            #expect(author.relationships.map(\.name) == ["books"])
            #expect(model.attributes(of: "Author").map(\.name) == ["name", "alias"])
            #expect(model.entity(named: "Book")?.versionHashModifier == "2")
            #expect(model.configurations == [ModelConfiguration(name: "Default", entities: ["Author", "Book", "Writer"])])
            #expect(model.fetchRequestTemplates == [FetchRequestTemplate(name: "byTitle", entity: "Book", predicate: "title BEGINSWITH[c] $PREFIX AND pages > 100")])
        }

        @Test func attributesTypesDefaultsAndFlags() throws {
            let model = try decoded().model
            let book = try #require(model.entity(named: "Book"))
            #expect(book.attributes.map(\.name) == ["authorCount", "cost", "cover", "id", "pages", "price", "published", "title"])
            let price = try #require(book.attribute(named: "price"))
            #expect(price.type == .double && !price.isOptional && price.defaultValue == .double(20.5))
            #expect(book.attribute(named: "title")?.isOptional == true)
            #expect(book.attribute(named: "pages")?.defaultValue == .integer(0))
            #expect(book.attribute(named: "published")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 100)))
            #expect(book.attribute(named: "id")?.defaultValue == .uuid(UUID(uuid: (0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB))))
            #expect(book.attribute(named: "cost")?.defaultValue == .decimal(Decimal(string: "1.23")!))
            #expect(book.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
            #expect(book.attribute(named: "cover")?.allowsExternalBinaryDataStorage == true)
            #expect(book.attribute(named: "cover")?.preservesValueInHistoryOnDeletion == false)
            #expect(book.attribute(named: "authorCount")?.derivationExpression == "authors.@count")
            let alias = try #require(model.entity(named: "Author")?.attribute(named: "alias"))
            #expect(alias.defaultValue == "anon" && alias.isIndexed && alias.valueClassName == nil)
        }

        @Test func validationPredicatesBecomeBounds() throws {
            let cache = try decoded()
            let name = try #require(cache.model.entity(named: "Writer")?.attribute(named: "name"))
            #expect(name.minLength == 1 && name.maxLength == 40)
            #expect(name.regularExpression == "[A-Z].*")
            #expect(!name.isOptional)
            let price = try #require(cache.model.entity(named: "Book")?.attribute(named: "price"))
            #expect(price.minValue == 15 && price.maxValue == 100)
            let published = try #require(cache.model.entity(named: "Book")?.attribute(named: "published"))
            #expect(published.minDate == Date(timeIntervalSinceReferenceDate: 0))
            // A predicate the model cannot express is reported, not silently dropped.
            #expect(cache.warnings.map(\.description) == [
                "Book.published: validation predicate SELF != CAST(50, \"NSDate\") has no equivalent in the model; it is not enforced"
            ])
        }

        @Test func relationshipsConstraintsAndIndexes() throws {
            let model = try decoded().model
            let books = try #require(model.entity(named: "Author")?.relationship(named: "books"))
            #expect(books.destination == "Book" && books.inverse == "authors")
            #expect(books.isToMany && books.isOrdered && books.deleteRule == .cascade)
            #expect(books.minCount == 1 && books.maxCount == 5 && !books.isOptional)
            let favourite = try #require(model.entity(named: "Writer")?.relationship(named: "favourite"))
            #expect(!favourite.isToMany && favourite.isOptional && favourite.maxCount == 1)
            // The archived minimum of a to-one is kept: it governs nothing, but it is part of
            // the version hash (the corpus Recipes cache's hashes need it).
            #expect(favourite.minCount == 1)
            #expect(model.entity(named: "Book")?.relationship(named: "authors")?.deleteRule == .deny)
            #expect(model.inverse(of: favourite)?.name == "fans")
            let author = try #require(model.entity(named: "Author"))
            #expect(author.uniquenessConstraints == [["alias"]])
            // Fetch index descriptions win over the compound indexes derived from them.
            #expect(author.fetchIndexes == [FetchIndex("byAlias", elements: [FetchIndex.Element("alias", ascending: false)])])
            // Without fetch index descriptions, compound indexes are read as fetch indexes.
            #expect(model.entity(named: "Book")?.fetchIndexes == [FetchIndex("title_pages", ["title", "pages"])])
            let cheap = try #require(model.entity(named: "Book")?.fetchedProperties.first)
            #expect(cheap == FetchedPropertyDescription(
                name: "cheapBooks", entity: "Book", predicate: "price < 10",
                sortKeys: [SortKey("title", ascending: false, caseInsensitive: true)], fetchLimit: 5, userInfo: ["currency": "EUR"]))
        }

        @Test func uncompressedArchiveDecodesToo() throws {
            let (builder, root) = try ModelArchiveFixture.archive()
            let cache = try ModelCache(archive: builder.encoded(root: root))
            #expect(cache.model.entities.count == 3)
        }

        // MARK: - Damaged input

        @Test func truncatedBlobIsATypedError() throws {
            let (builder, root) = try ModelArchiveFixture.archive()
            let blob = try builder.compressed(root: root)
            #expect(throws: ModelCacheError.self) { try ModelCache(compressed: blob.prefix(blob.count / 2)) }
            do {
                _ = try ModelCache(compressed: blob.prefix(blob.count - 3))
                Issue.record("a truncated blob decoded")
            } catch {
                guard case .notCompressed(let reason) = error else { Issue.record("unexpected \(error)"); return }
                #expect(reason.contains("truncated"))
                #expect(error.code == 134130)
            }
        }

        @Test func garbageAndEmptyBlobsAreTypedErrors() {
            for blob in [Data(), Data([0xFF, 0xFF, 0xFF, 0xFF]), Data("SQLite format 3".utf8), Data(repeating: 0x07, count: 300)] {
                do {
                    _ = try ModelCache(compressed: blob)
                    Issue.record("\(blob.count) garbage bytes decoded")
                } catch {
                    switch error {
                    case .notCompressed, .notAPropertyList: break
                    default: Issue.record("unexpected error for garbage: \(error)")
                    }
                }
            }
        }

        @Test func propertyListThatIsNotAnArchive() throws {
            let plist = try PropertyListSerialization.data(fromPropertyList: ["hello": "world"], format: .binary, options: 0)
            #expect { try ModelCache(compressed: RawDeflate.compress(plist)) } throws: { error in
                guard let error = error as? ModelCacheError, case .notAnArchive = error else { return false }
                return true
            }
            #expect { try ModelCache(compressed: RawDeflate.compress(Data("not a plist at all".utf8))) } throws: { error in
                guard let error = error as? ModelCacheError, case .notAPropertyList = error else { return false }
                return true
            }
        }

        @Test func archiveOfSomethingElse() throws {
            let b = ArchiveBuilder()
            let root = b.object("NSArray", ["NS.objects": [b.string("x")]])
            #expect { try ModelCache(compressed: b.compressed(root: root)) } throws: { error in
                guard let error = error as? ModelCacheError, case .malformedArchive(_, _, let reason) = error else { return false }
                return reason.contains("not NSManagedObjectModel")
            }
        }

        @Test func archiveWithAnInconsistentModel() throws {
            let b = ArchiveBuilder()
            let model = b.reserve(), entity = b.reserve()
            let orphan = b.object("NSRelationshipDescription", supers: ["NSPropertyDescription"], [
                "NSPropertyName": b.string("owner"), "NSEntity": entity, "_NSDestinationEntityName": b.string("Nowhere"),
                "NSMaxCount": 1, "NSMinCount": 0, "NSDeleteRule": 1,
            ])
            b.fill(entity, "NSEntityDescription", [
                "NSEntityName": b.string("Thing"), "NSProperties": b.dictionary([("owner", orphan)]),
            ])
            b.fill(model, "NSManagedObjectModel", ["NSEntities": b.knownKeysDictionary([("Thing", entity)])])
            #expect { try ModelCache(compressed: b.compressed(root: model)) } throws: { error in
                guard let error = error as? ModelCacheError, case .invalidModel(.unknownDestination(let e, let r, let d)) = error else { return false }
                return e == "Thing" && r == "owner" && d == "Nowhere" && error.description.contains("Thing.owner")
            }
        }

        @Test func cyclicReferencesDoNotHang() throws {
            let b = ArchiveBuilder()
            let model = b.reserve(), entity = b.reserve()
            // A predicate whose expression refers to itself.
            let loop = b.reserve()
            b.fill(loop, "NSKeyPathExpression", ["NSOperand": loop, "NSArguments": b.array([loop]), "NSSelectorName": b.string("valueForKey:")])
            let attribute = b.object("NSAttributeDescription", supers: ["NSPropertyDescription"], [
                "NSPropertyName": b.string("value"), "NSEntity": entity, "NSAttributeType": 200,
                "NSValidationPredicates": b.array([ModelArchiveFixture.comparison(b, left: loop, type: 3, right: ModelArchiveFixture.constant(b, 1))]),
            ])
            b.fill(entity, "NSEntityDescription", ["NSEntityName": b.string("Thing"), "NSProperties": b.dictionary([("value", attribute)])])
            b.fill(model, "NSManagedObjectModel", ["NSEntities": b.knownKeysDictionary([("Thing", entity)])])
            let cache = try ModelCache(compressed: b.compressed(root: model))
            #expect(cache.model.entity(named: "Thing")?.attribute(named: "value")?.minValue == nil)
            #expect(cache.warnings.count == 1)
        }
    }
}
