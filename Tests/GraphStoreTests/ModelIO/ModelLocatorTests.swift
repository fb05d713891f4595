import Foundation
import Testing
@testable import GraphStore

extension ModelIOTests {
    /// Opening a store without a model: its `Z_MODELCACHE` when it decodes and fits,
    /// otherwise schema inference, with a note saying why.
    @Suite struct ModelLocatorTests {
        /// A new store of the BookStore model with a `Z_MODELCACHE` row holding `blob`.
        private func store(withCache blob: Data?) throws -> String {
            let path = try Fixtures.newStorePath()
            _ = try PersistentStore.create(at: path, model: Fixtures.bookStoreModel())
            if let blob {
                let connection = try Connection(path: path, mode: .readWrite)
                try connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
                try connection.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)").execute([.blob(blob)])
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
            return path
        }

        @Test func archivedModelRoundTrips() throws {
            var model = try Fixtures.bookStoreModel()
            model.versionIdentifiers = ["4"]
            let decoded = try ModelCache(compressed: ModelArchiveEncoder.compressed(model))
            #expect(decoded.model == (try ModelArchiveEncoder.sortedProperties(model)))
            #expect(decoded.warnings.isEmpty)
        }

        @Test func cacheIsUsedAndKeepsTheStoresVersionHashes() throws {
            let model = try Fixtures.bookStoreModel()
            let path = try store(withCache: ModelArchiveEncoder.compressed(model))
            let before = Fixtures.fingerprint(path)
            let store = try PersistentStore(path: path)
            #expect(store.modelOrigin == .modelCache)
            #expect(store.modelCacheProblem == nil)
            #expect(store.model.entities == (try ModelArchiveEncoder.sortedProperties(model)).entities)
            #expect(store.model.knownVersionHashes == store.metadata.versionHashes)
            #expect(store.model.entityVersionHashes == store.metadata.versionHashes)
            #expect(Fixtures.fingerprint(path) == before)
        }

        @Test func undecodableCacheFallsBackToInferenceWithANote() throws {
            let path = try store(withCache: Data([0x00, 0x01, 0x02, 0x03]))
            let store = try PersistentStore(path: path)
            guard case .inferred(let notes) = store.modelOrigin else {
                Issue.record("opened with \(store.modelOrigin)")
                return
            }
            #expect(notes.first?.contains("Z_MODELCACHE could not be used") == true)
            #expect(throws: ModelCacheError.self) { try store.decodedModelCache() }
            // The reason is data on the store too, for a program (or the shell) to show.
            guard case .undecodable(.notCompressed)? = store.modelCacheProblem else {
                Issue.record("modelCacheProblem is \(String(describing: store.modelCacheProblem))")
                return
            }
            #expect(store.modelCacheProblem?.description == notes.first)
        }

        @Test func aCacheTableWithoutARowIsAProblemToo() throws {
            let path = try store(withCache: nil)
            try Connection(path: path, mode: .readWrite).executeScript("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB); PRAGMA wal_checkpoint(TRUNCATE)")
            let store = try PersistentStore(path: path)
            #expect(store.modelCacheProblem == .undecodable(.missing("Z_MODELCACHE has no row")))
        }

        @Test func cacheOfAnotherModelFallsBackToInference() throws {
            let other = try ManagedObjectModel { EntityDescription("Elsewhere") { AttributeDescription("x", .string) } }
            let path = try store(withCache: ModelArchiveEncoder.compressed(other))
            let store = try PersistentStore(path: path)
            guard case .inferred(let notes) = store.modelOrigin else {
                Issue.record("opened with \(store.modelOrigin)")
                return
            }
            #expect(notes.first?.contains("does not match its tables") == true)
            guard case .mismatched(let differences)? = store.modelCacheProblem else {
                Issue.record("modelCacheProblem is \(String(describing: store.modelCacheProblem))")
                return
            }
            #expect(!differences.isEmpty && differences.count <= 3)
        }

        @Test func storeWithoutCacheIsInferredWithoutComplaint() throws {
            let path = try store(withCache: nil)
            let store = try PersistentStore(path: path)
            guard case .inferred(let notes) = store.modelOrigin else {
                Issue.record("opened with \(store.modelOrigin)")
                return
            }
            #expect(!notes.contains { $0.contains("Z_MODELCACHE") })
            #expect(store.modelCacheProblem == nil)
            #expect { try store.decodedModelCache() } throws: { error in
                guard let error = error as? ModelCacheError, case .missing = error else { return false }
                return true
            }
        }

        @Test func openingWithAModelFile() throws {
            let modelPath = try XcodeModelFixtures.writeModel("""
                <entity name="Book" representedClassName="Book">
                    <attribute name="price" optional="YES" attributeType="Float" defaultValueString="0.0"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="BookCategory" inverseName="books" inverseEntity="BookCategory"/>
                    <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
                </entity>
                <entity name="BookCategory">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="category" inverseEntity="Book"/>
                </entity>
                <entity name="Page">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
                </entity>
                """)
            let path = try store(withCache: nil)
            let store = try PersistentStore(path: path, modelPath: modelPath)
            #expect(store.modelOrigin == .file(modelPath))
            #expect(store.model.entity(named: "Book")?.attribute(named: "price")?.defaultValue == .double(0))
            #expect { try PersistentStore(path: path, modelPath: modelPath + "-missing") } throws: { error in
                guard let error = error as? ModelFileError, case .fileNotFound = error else { return false }
                return error.code == 134130
            }
        }
    }
}
