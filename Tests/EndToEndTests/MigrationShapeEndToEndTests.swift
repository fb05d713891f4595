import Foundation
import Testing
import TestScratch

/// `graphstore STORE 'migrate --model BUNDLE --plan'` on a copy of the BookStore example,
/// for relationships whose storage changes shape: the plan says where the links go, and a
/// to-many that becomes a to-one while an object has several destinations is refused.
@Suite struct MigrationShapeEndToEndTests {
    /// The example's model.
    static var model: String {
        get throws {
            let path = GraphStoreBinary.packageRoot.appendingPathComponent("examples/BookStore/BookStore.xcdatamodeld/BookStore.xcdatamodel/contents").path
            return try String(contentsOfFile: path, encoding: .utf8)
        }
    }

    /// A copy of the example store beside a bundle `Shop.xcdatamodeld` of two versions: the
    /// example's model, then that model with `change` applied (the current version).
    static func storeAndBundle(_ change: (String) -> String) throws -> (store: String, bundle: String) {
        let store = try GraphStoreBinary.copy(GraphStoreBinary.exampleStore)
        let bundle = (store as NSString).deletingLastPathComponent + "/Shop.xcdatamodeld"
        for (name, contents) in [("Shop", try model), ("Shop 2", change(try model))] {
            let folder = bundle + "/\(name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        }
        let current = #"<?xml version="1.0"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Shop 2.xcdatamodel</string></dict></plist>"#
        try Data(current.utf8).write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        return (store, bundle)
    }

    static let books = #"<relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book""#
    static let category = #"<relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="BookCategory""#

    /// Book.category becomes to-many (a many-to-many with BookCategory.books): the plan says
    /// the links move into a new join table.
    @Test func aToOneBecomingManyToManyMovesItsLinksIntoAJoinTable() throws {
        let (store, bundle) = try Self.storeAndBundle {
            $0.replacingOccurrences(of: Self.category, with: #"<relationship name="category" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="BookCategory""#)
        }
        let result = try GraphStoreBinary.run([store, "migrate --model \(bundle) --plan"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("""
              Book (3 objects):
                category: becomes to-many: each object's destination becomes its one member; stored in a new join table (was a column of this entity's table): its links move there
            """), "\(result.stdout)")
        #expect(result.stdout.contains("    books: stored in a new join table (was the inverse's column): its links move there"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("Can be migrated in 1 step; every value is kept.\n"), "\(result.stdout)")
    }

    /// BookCategory.books becomes to-one while Fiction holds two books: refused with 134110
    /// before anything is written, the plan saying why.
    @Test func aToManyBecomingToOneWithSeveralDestinationsIsRefused() throws {
        let (store, bundle) = try Self.storeAndBundle {
            $0.replacingOccurrences(of: Self.books, with: #"<relationship name="books" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book""#)
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try GraphStoreBinary.run(["--write", store, "migrate --model \(bundle)"])
        #expect(result.status == 1)
        let reason = "BookCategory.books: becomes a to-one in step Shop → Shop 2, but 1 BookCategory object has more than one destination (BookCategory/p1 is one) and a to-one keeps only one: links would be lost (134110)"
        #expect(result.stdout.contains("  refused (134110): \(reason.replacingOccurrences(of: " (134110)", with: ""))"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("Refused at step 1 (Shop → Shop 2): \(reason)\n"), "\(result.stdout)")
        #expect(result.stderr.contains("migrate: Refused at step 1 (Shop → Shop 2): \(reason)"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }
}
