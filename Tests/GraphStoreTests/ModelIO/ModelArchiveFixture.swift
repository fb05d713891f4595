import Foundation
@testable import GraphStore

/// A hand-built archive of a small model, laid out like the archives Core Data writes into
/// `Z_MODELCACHE`, exercising what the corpus caches do not: validation predicates, derived
/// attributes, fetched properties, fetch request templates, inherited-property proxies,
/// descending fetch indexes, uniqueness constraints and typed default values.
enum ModelArchiveFixture {
    static let attributeSupers = ["NSPropertyDescription"]

    static func archive() throws -> (builder: ArchiveBuilder, root: ArchiveBuilder.Ref) {
        let b = ArchiveBuilder()
        let model = b.reserve()
        let writer = b.reserve(), author = b.reserve(), book = b.reserve()

        // Writer (abstract): name, favourite ⇄ Book.fans
        let writerName = b.reserve(), favourite = b.reserve()
        let bookFans = b.reserve(), bookAuthors = b.reserve(), authorBooks = b.reserve()
        b.fill(writerName, "NSAttributeDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("name"), "NSEntity": writer, "NSAttributeType": 700,
            "NSAttributeValueClassName": b.string("NSString"), "NSFlagsKey": 0, "_P": 241,
            "NSRenamingIdentifier": b.string("name"), "NSDefaultValue": b.null, "NSValueTransformerName": b.null,
            "NSValidationPredicates": b.array([
                comparison(b, left: lengthExpression(b), type: 3, right: constant(b, 1)),
                comparison(b, left: lengthExpression(b), type: 1, right: constant(b, 40)),
                comparison(b, left: selfExpression(b), type: 6, right: constant(b, b.string("[A-Z].*"))),
            ]),
            "NSValidationWarnings": b.array([b.add(1670), b.add(1660), b.add(1680)]),
        ])
        b.fill(favourite, "NSRelationshipDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("favourite"), "NSEntity": writer, "NSDestinationEntity": book,
            "_NSDestinationEntityName": b.string("Book"), "NSInverseRelationship": bookFans,
            "_NSInverseRelationshipName": b.string("fans"), "NSMinCount": 1, "NSMaxCount": 1, "NSDeleteRule": 1,
            "NSIsOptional": true, "_P": 243, "NSRenamingIdentifier": b.string("favourite"),
        ])
        b.fill(writer, "NSEntityDescription", [
            "NSEntityName": b.string("Writer"), "NSClassNameForEntity": b.string("Writer"), "NSIsAbstract": true,
            "NSSuperentity": b.null, "NSManagedObjectModel": model, "NSRenamingIdentifier": b.string("Writer"),
            "NSVersionHashModifier": b.null, "NSUserInfo": b.dictionary([("role", b.string("base"))]),
            "NSSubentities": b.dictionary([("Author", author)], className: "NSMutableDictionary"),
            "NSProperties": b.dictionary([("name", writerName), ("favourite", favourite)], className: "NSMutableDictionary"),
            "NSFetchIndexDescriptions": b.array([], className: "NSMutableArray"),
        ])

        // Author: Writer + alias, books ⇄ Book.authors (ordered, cascade, 1...5)
        let alias = b.reserve()
        b.fill(alias, "NSAttributeDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("alias"), "NSEntity": author, "NSAttributeType": 700, "NSIsOptional": true,
            "NSAttributeValueClassName": b.string("NSString"), "NSFlagsKey": 0, "NSIsIndexed": true,
            "NSDefaultValue": b.object("NSMutableString", supers: ["NSString"], ["NS.string": "anon"]),
            "NSRenamingIdentifier": b.string("alias"),
        ])
        b.fill(authorBooks, "NSRelationshipDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("books"), "NSEntity": author, "NSDestinationEntity": book,
            "_NSDestinationEntityName": b.string("Book"), "NSInverseRelationship": bookAuthors,
            "_NSInverseRelationshipName": b.string("authors"), "NSMinCount": 1, "NSMaxCount": 5, "NSDeleteRule": 2,
            "NSIsOrdered": true, "NSRenamingIdentifier": b.string("books"),
        ])
        // Older releases archive inherited properties as proxies, newer ones as copies.
        let nameProxy = b.object("_NSPropertyDescriptionProxy", [
            "NSUnderlyingProperty": writerName, "NSEntityDescription": author, "NSReferenceID": 0,
        ])
        let byAlias = b.reserve()
        b.fill(byAlias, "NSFetchIndexDescription", [
            "NSIndexName": b.string("byAlias"), "NSEntity": author, "NSPartialIndexPredicate": b.null,
            "NSIndexElements": b.array([
                b.object("NSFetchIndexElementDescription", [
                    "NSPropertyName": b.string("alias"), "NSFetchIndexElementType": 0, "NSAscending": false,
                    "NSFetchIndexDescription": byAlias,
                ])
            ]),
        ])
        b.fill(author, "NSEntityDescription", [
            "NSEntityName": b.string("Author"), "NSClassNameForEntity": b.null, "NSSuperentity": writer,
            "NSManagedObjectModel": model, "NSRenamingIdentifier": b.string("Pen"),
            "NSProperties": b.dictionary(
                [("name", nameProxy), ("favourite", favourite), ("alias", alias), ("books", authorBooks)],
                className: "NSMutableDictionary"),
            "NSUniqueTuples": b.array([b.array([b.string("alias")])], className: "NSMutableArray"),
            "NSFetchIndexDescriptions": b.array([byAlias], className: "NSMutableArray"),
            "NSCompoundIndexes": b.array([b.array([b.string("alias")])]),
        ])

        // Book
        let title = attribute(b, "title", entity: book, type: 700, optional: true, className: "NSString")
        let price = attribute(b, "price", entity: book, type: 500, optional: false, className: "NSNumber", extra: [
            "NSDefaultValue": b.add(20.5),
            "NSValidationPredicates": b.array([
                comparison(b, left: selfExpression(b), type: 3, right: constant(b, 15)),
                comparison(b, left: selfExpression(b), type: 1, right: constant(b, 100)),
            ]),
        ])
        let published = attribute(b, "published", entity: book, type: 900, optional: true, className: "NSDate", extra: [
            "NSDefaultValue": b.object("NSDate", ["NS.time": 100.0]),
            "NSValidationPredicates": b.array([
                comparison(b, left: selfExpression(b), type: 3, right: constant(b, b.object("NSDate", ["NS.time": 0.0]))),
                comparison(b, left: selfExpression(b), type: 5, right: constant(b, b.object("NSDate", ["NS.time": 50.0]))),
            ]),
        ])
        let id = attribute(b, "id", entity: book, type: 1100, optional: false, className: "NSUUID", extra: [
            "NSDefaultValue": b.object("NSUUID", ["NS.uuidbytes": Data(repeating: 0xAB, count: 16)]),
            "NSFlagsKey": 16,
        ])
        let cover = attribute(b, "cover", entity: book, type: 1000, optional: true, className: "NSData", extra: ["NSFlagsKey": 4])
        let pages = attribute(b, "pages", entity: book, type: 100, optional: false, className: "NSNumber", extra: ["NSDefaultValue": b.add(0)])
        let cost = attribute(b, "cost", entity: book, type: 400, optional: true, className: "NSDecimalNumber", extra: [
            "NSDefaultValue": b.object("NSDecimalNumber", supers: ["NSNumber"], [
                "NS.mantissa": Data([0x7B, 0, 0, 0, 0, 0, 0, 0]), "NS.exponent": -2, "NS.negative": false, "NS.length": 1,
            ])
        ])
        let authorCount = attribute(
            b, "authorCount", entity: book, type: 300, optional: true, className: "NSNumber",
            derived: true, extra: ["NSDerivationExpression": keyPath(b, "authors.@count")])
        b.fill(bookFans, "NSRelationshipDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("fans"), "NSEntity": book, "NSDestinationEntity": writer,
            "_NSDestinationEntityName": b.string("Writer"), "NSInverseRelationship": favourite,
            "_NSInverseRelationshipName": b.string("favourite"), "NSMinCount": 0, "NSMaxCount": 0, "NSDeleteRule": 1,
            "NSIsOptional": true,
        ])
        b.fill(bookAuthors, "NSRelationshipDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("authors"), "NSEntity": book, "NSDestinationEntity": author,
            "_NSDestinationEntityName": b.string("Author"), "NSInverseRelationship": authorBooks,
            "_NSInverseRelationshipName": b.string("books"), "NSMinCount": 0, "NSMaxCount": 0, "NSDeleteRule": 3,
            "NSIsOptional": true, "NSIsTransient": false,
        ])
        // A fetch request with an order and a limit, as an app sets them in code before the
        // store is added (Xcode's editor sets neither); sort descriptors archived as
        // Foundation's coder writes them (NSKey, NSAscending, NSSelector).
        let titleOrder = b.object("NSSortDescriptor", [
            "NSKey": b.string("title"), "NSAscending": false, "NSSelector": b.string("localizedCaseInsensitiveCompare:"),
        ])
        let cheap = b.object("NSFetchedPropertyDescription", supers: attributeSupers, [
            "NSPropertyName": b.string("cheapBooks"), "NSEntity": book,
            "NSFetchRequest": fetchRequest(
                b, entity: book, predicate: comparison(b, left: keyPath(b, "price"), type: 0, right: constant(b, 10)),
                sortDescriptors: b.array([titleOrder]), fetchLimit: 5),
            "NSUserInfo": b.dictionary([("currency", b.string("EUR"))]),
        ])
        b.fill(book, "NSEntityDescription", [
            "NSEntityName": b.string("Book"), "NSClassNameForEntity": b.string("Book"), "NSSuperentity": b.null,
            "NSManagedObjectModel": model, "NSRenamingIdentifier": b.string("Book"),
            "NSVersionHashModifier": b.string("2"),
            "NSProperties": b.dictionary([
                ("title", title), ("price", price), ("published", published), ("id", id), ("cover", cover),
                ("pages", pages), ("cost", cost), ("authorCount", authorCount), ("fans", bookFans),
                ("authors", bookAuthors), ("cheapBooks", cheap),
            ], className: "NSMutableDictionary"),
            "NSCompoundIndexes": b.array([b.array([b.string("title"), b.string("pages")])]),
        ])

        let byTitle = fetchRequest(b, entity: book, predicate: b.object("NSCompoundPredicate", [
            "NSCompoundPredicateType": 1,
            "NSSubpredicates": b.array([
                comparison(b, left: keyPath(b, "title"), type: 8, right: variable(b, "PREFIX"), options: 1),
                comparison(b, left: keyPath(b, "pages"), type: 2, right: constant(b, 100)),
            ]),
        ]))
        b.fill(model, "NSManagedObjectModel", [
            "NSEntities": b.knownKeysDictionary([("Author", author), ("Book", book), ("Writer", writer)]),
            "NSVersionIdentifiers": b.array([b.string("7")], className: "NSSet"),
            "NSFetchRequestTemplates": b.knownKeysDictionary([("byTitle", byTitle)]),
            "NSConfigurations": b.dictionary([("Default", b.array([book, writer, author], className: "NSSet"))], className: "NSMutableDictionary"),
        ])
        return (b, model)
    }

    // MARK: - Pieces

    static func attribute(
        _ b: ArchiveBuilder, _ name: String, entity: ArchiveBuilder.Ref, type: Int, optional: Bool, className: String,
        derived: Bool = false, extra: [String: Any] = [:]
    ) -> ArchiveBuilder.Ref {
        var fields: [String: Any] = [
            "NSPropertyName": b.string(name), "NSEntity": entity, "NSAttributeType": type,
            "NSAttributeValueClassName": b.string(className), "NSFlagsKey": 0, "NSRenamingIdentifier": b.string(name),
            "NSDefaultValue": b.null, "NSValueTransformerName": b.null,
        ]
        if optional { fields["NSIsOptional"] = true }
        fields.merge(extra) { _, new in new }
        return derived
            ? b.object("NSDerivedAttributeDescription", supers: ["NSAttributeDescription"] + attributeSupers, fields)
            : b.object("NSAttributeDescription", supers: attributeSupers, fields)
    }

    static func selfExpression(_ b: ArchiveBuilder) -> ArchiveBuilder.Ref {
        b.object("NSSelfExpression", supers: ["NSExpression"], ["NSExpressionType": 1])
    }

    static func keyPath(_ b: ArchiveBuilder, _ path: String) -> ArchiveBuilder.Ref {
        b.object("NSKeyPathExpression", supers: ["NSFunctionExpression", "NSExpression"], [
            "NSExpressionType": 3, "NSSelectorName": b.string("valueForKey:"), "NSOperand": selfExpression(b),
            "NSArguments": b.array([b.object("NSKeyPathSpecifierExpression", supers: ["NSExpression"], ["NSExpressionType": 10, "NSKeyPath": b.string(path)])], className: "NSMutableArray"),
        ])
    }

    static func lengthExpression(_ b: ArchiveBuilder) -> ArchiveBuilder.Ref { keyPath(b, "length") }

    static func variable(_ b: ArchiveBuilder, _ name: String) -> ArchiveBuilder.Ref {
        b.object("NSVariableExpression", supers: ["NSExpression"], ["NSExpressionType": 2, "NSVariable": b.string(name)])
    }

    static func constant(_ b: ArchiveBuilder, _ value: Any) -> ArchiveBuilder.Ref {
        b.object("NSConstantValueExpression", supers: ["NSExpression"], ["NSExpressionType": 0, "NSConstantValue": value])
    }

    static func comparison(_ b: ArchiveBuilder, left: ArchiveBuilder.Ref, type: Int, right: ArchiveBuilder.Ref, options: Int = 0) -> ArchiveBuilder.Ref {
        let op = b.object("NSComparisonPredicateOperator", ["NSOperatorType": type, "NSModifier": 0, "NSOptions": options, "NSNegate": false])
        return b.object("NSComparisonPredicate", supers: ["NSPredicate"], ["NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": op])
    }

    static func fetchRequest(
        _ b: ArchiveBuilder, entity: ArchiveBuilder.Ref, predicate: ArchiveBuilder.Ref, sortDescriptors: ArchiveBuilder.Ref? = nil, fetchLimit: Int = 0
    ) -> ArchiveBuilder.Ref {
        b.object("NSFetchRequest", [
            "NSEntity": entity, "NSPredicate": predicate, "NSSortDescriptors": sortDescriptors ?? b.null, "NSFetchLimit": fetchLimit,
            "NSHasFetchRequestFlags": true,
        ])
    }
}
