import Foundation
import Testing
@testable import GraphStore

/// The corpus stores whose rows keep values in external data files (Wire's user images):
/// the files are not in the corpus, so each store is read as it is (every fetch succeeds,
/// the value is an error of its own) and from a copy beside a support folder made from the
/// references its rows hold (the values read are the files' bytes, exactly).
@Suite struct CorpusExternalDataTests {
    @Test func everyReferenceReadsItsFileOrSaysItIsMissing() throws {
        guard let corpus = try Fixtures.requireCorpus("everyReferenceReadsItsFileOrSaysItIsMissing") else { return }
        var referencing = 0
        for path in ModelIOCorpus.stores(in: corpus) {
            let store = try PersistentStore(path: path)
            let references = try externalReferences(store)
            guard !references.isEmpty else { continue }
            referencing += 1
            let name = (path as NSString).lastPathComponent
            // As it is: no support folder, every object still fetched.
            let context = ManagedObjectContext(store: store)
            for reference in references {
                let object = try context.existingObject(entity: reference.entity, primaryKey: reference.primaryKey)
                #expect(try object.externalDataReference(forKey: reference.key)?.name == reference.file, "\(name)")
                #expect(throws: StoreError.externalDataMissing(
                    entity: reference.entity, primaryKey: reference.primaryKey, key: reference.key,
                    file: store.supportFolder.externalDataFile(named: reference.file))) { try object.value(forKey: reference.key) }
            }
            // A copy with its support folder: each file's bytes, read when asked for.
            let copy = try Fixtures.newStorePath(name)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
            let folder = StoreSupportFolder(storePath: copy)
            try FileManager.default.createDirectory(atPath: folder.externalDataPath, withIntermediateDirectories: true)
            for reference in references {
                try Data("bytes of \(reference.file)".utf8).write(to: URL(fileURLWithPath: folder.externalDataFile(named: reference.file)))
            }
            let copied = try PersistentStore(path: copy)
            let fresh = ManagedObjectContext(store: copied)
            for mapping in copied.allMappings { _ = try fresh.fetch(mapping.name, exactEntity: true) }
            for reference in references {
                let object = try fresh.existingObject(entity: reference.entity, primaryKey: reference.primaryKey)
                #expect(try object.get(reference.key, as: Data.self) == Data("bytes of \(reference.file)".utf8), "\(name)")
            }
        }
        #expect(referencing >= 5)
    }

    struct Reference {
        var entity: String
        var primaryKey: Int64
        var key: String
        var file: String
    }

    /// The `0x02` references the store's rows hold, read with SQL alone.
    private func externalReferences(_ store: PersistentStore) throws -> [Reference] {
        let raw = try Fixtures.rawReader(of: store)
        var found: [Reference] = []
        for mapping in store.allMappings {
            for (index, attribute) in mapping.attributes.enumerated() where mapping.externalStorage[index] {
                guard let column = attribute.column, mapping.attributes.firstIndex(where: { $0.column == column }) == index else { continue }
                let rows = try raw.rows(
                    "SELECT Z_PK, CAST(substr(\(column), 2, 36) AS TEXT) FROM \(mapping.table) WHERE Z_ENT = ? AND substr(\(column), 1, 1) = x'02'",
                    [.integer(Int64(mapping.number))])
                for row in rows {
                    guard case .integer(let key) = row[0], case .text(let file) = row[1] else { continue }
                    found.append(Reference(entity: mapping.name, primaryKey: key, key: attribute.attribute.name, file: file))
                }
            }
        }
        return found
    }
}
