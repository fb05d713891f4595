import Foundation
import Testing
@testable import GraphStore

/// Every corpus store, opened with every model source that applies (its Z_MODELCACHE,
/// inference from its schema, each paired Xcode model): the objects fetched through a
/// context match the rows in SQL, every relationship resolves or is reported as dangling,
/// and no byte changes on disk.
@Suite struct CorpusGraphTests {
    struct Source {
        var name: String
        var open: () throws -> PersistentStore
    }

    private func sources(for path: String, pairs: Set<String>) throws -> [Source] {
        var result = [Source(name: "default", open: { try PersistentStore(path: path) })]
        result.append(Source(name: "inferred") {
            let probe = try PersistentStore(path: path)
            let (model, notes) = try probe.inferredModel()
            return try PersistentStore(path: path, model: model, origin: .inferred(notes: notes))
        })
        for model in pairs.sorted() {
            result.append(Source(name: (model as NSString).lastPathComponent) { try PersistentStore(path: path, modelPath: model) })
        }
        return result
    }

    @Test func objectsMatchRowsInEveryStoreWithEveryModelSource() throws {
        guard let corpus = try Fixtures.requireCorpus("objectsMatchRowsInEveryStoreWithEveryModelSource") else { return }
        let pairs = ModelIOCorpus.pairs(in: corpus)
        var summary: [String] = []
        var total = Report()
        var stores = 0
        for path in ModelIOCorpus.stores(in: corpus) {
            let name = ModelIOCorpus.relative(path, to: corpus)
            let before = Fixtures.fingerprint(path)
            for source in try sources(for: path, pairs: pairs[path] ?? []) {
                let store: PersistentStore
                do {
                    store = try source.open()
                } catch {
                    Issue.record("\(name) with \(source.name) does not open: \(error)")
                    continue
                }
                let report = try check(store, name: "\(name) [\(source.name)]")
                summary.append("\(name) [\(source.name)]: \(report)")
                if source.name == "default" {
                    stores += 1
                    total.add(report)
                }
            }
            #expect(Fixtures.fingerprint(path) == before, "\(name) changed on disk")
        }
        #expect(summary.count >= 60)
        print(summary.joined(separator: "\n"))
        // The figure of the closing note: every store with the model it gives.
        print("value by value, GraphStore against SQL decoded by Core Data's rules: \(stores) stores, \(total)")
    }

    /// What one store's check found.
    struct Report: CustomStringConvertible {
        var objects = 0, values = 0, mismatches = 0, unreadable = 0, links = 0, dangling = 0

        mutating func add(_ other: Report) {
            objects += other.objects
            values += other.values
            mismatches += other.mismatches
            unreadable += other.unreadable
            links += other.links
            dangling += other.dangling
        }

        var description: String {
            "\(objects) objects, \(values) values, \(mismatches) mismatches, \(unreadable) unreadable, \(links) links, \(dangling) dangling"
        }
    }

    /// Compares every entity's objects with its rows; returns a one-line report.
    private func check(_ store: PersistentStore, name: String) throws -> Report {
        let raw = try Fixtures.rawReader(of: store)
        let context = ManagedObjectContext(store: store)
        var objects = 0
        var dangling = 0
        var values = 0
        var mismatches = 0
        var unreadable = 0
        var links = 0
        for mapping in store.allMappings {
            let sqlKeys = try raw.rows("SELECT Z_PK FROM \(mapping.table) WHERE Z_ENT = ? ORDER BY Z_PK", [.integer(Int64(mapping.number))]).map { $0[0] }
            // Every fetch of every entity succeeds: a value that cannot be read (a missing
            // external data file) is an error of that value only, when it is read.
            let fetched = try context.fetch(mapping.name, exactEntity: true)
            #expect(fetched.map { SQLiteValue.integer($0.objectID.primaryKey ?? -1) } == sqlKeys, "\(name): \(mapping.name) keys differ")
            objects += fetched.count
            for object in fetched {
                let compared = try compareValues(object, raw: raw, name: name)
                values += compared.values
                mismatches += compared.mismatches
                unreadable += compared.unreadable
                for r in mapping.relationships {
                    switch r.storage {
                    case .foreignKey:
                        guard let id = try object.objectID(forKey: r.relationship.name) else { continue }
                        links += 1
                        do {
                            _ = try context.existingObject(entity: r.relationship.destination, primaryKey: id.primaryKey ?? -1)
                        } catch {
                            dangling += 1
                        }
                    case .inverseForeignKey, .joinTable:
                        let members = try object.objectIDs(forKey: r.relationship.name)
                        #expect(try members.count == Int(count(of: r, key: object.objectID.primaryKey ?? -1, raw: raw)), "\(name): \(mapping.name).\(r.relationship.name)")
                        links += members.count
                    case .notStored:
                        continue
                    }
                }
            }
        }
        return Report(objects: objects, values: values, mismatches: mismatches, unreadable: unreadable, links: links, dangling: dangling)
    }

    /// Every stored attribute decodes to the value of its column read independently, by
    /// Core Data's rules (``SQLValueRules``); returns how many values were compared, how many
    /// differed, and how many both readings found unreadable (or kept in a missing file).
    private func compareValues(_ object: ManagedObject, raw: Connection, name: String) throws -> (values: Int, mismatches: Int, unreadable: Int) {
        let mapping = object.mapping
        let stored = mapping.attributes.enumerated().filter { $0.element.column != nil }
        guard !stored.isEmpty, let key = object.objectID.primaryKey else { return (0, 0, 0) }
        let list = stored.flatMap { SQLValueRules.selectList($0.element.column ?? "") }
        let row = try raw.rows("SELECT \(list.joined(separator: ", ")) FROM \(mapping.table) WHERE Z_PK = ?", [.integer(key)])
        guard let values = row.first else {
            Issue.record("\(name): \(object.objectID) has no row")
            return (0, 1, 0)
        }
        var (compared, mismatches, unreadable) = (0, 0, 0)
        func check(_ ok: Bool, _ detail: @autoclosure () -> String) {
            compared += 1
            if !ok {
                mismatches += 1
                Issue.record("\(name): \(object.objectID).\(detail())")
            }
        }
        for (n, (index, a)) in stored.enumerated() {
            let results = values[(n * SQLValueRules.width)..<((n + 1) * SQLValueRules.width)]
            let key = a.attribute.name
            switch SQLValueRules.expected(results, type: a.attribute.type, external: mapping.externalStorage[index]) {
            case .value(let expected):
                let found = Result { try object.value(forKey: key) }
                check((try? found.get()) == expected, "\(key): \(found) != \(String(describing: expected))")
            case .external(let file):
                let reference = try object.externalDataReference(forKey: key)
                check(reference?.name == file, "\(key): reference \(String(describing: reference)) != \(file)")
                if let reference, !reference.exists { unreadable += 1 }
            case .unreadable:
                unreadable += 1
                check((try? object.value(forKey: key)) == nil, "\(key): read, though SQLite's conversion cannot")
            }
        }
        return (compared, mismatches, unreadable)
    }

    /// The number of destinations a to-many has in SQL.
    private func count(of r: RelationshipMapping, key: Int64, raw: Connection) throws -> Int64 {
        switch r.storage {
        case .inverseForeignKey(let table, let column, _, _):
            return try raw.scalar("SELECT COUNT(*) FROM \(table) WHERE \(column) = ?", [.integer(key)])?.integer ?? -1
        case .joinTable(let join):
            return try raw.scalar("SELECT COUNT(*) FROM \(join.table) WHERE \(join.sourceColumn) = ?", [.integer(key)])?.integer ?? -1
        default:
            return 0
        }
    }
}
