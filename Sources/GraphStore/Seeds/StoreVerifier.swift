import Foundation

/// Is this store fit to ship? Runs every release check on a store, each named, without
/// changing it (open the store read-only: not one byte of it, its `-wal` or `-shm` changes).
///
/// The checks, by group:
/// - `sqlite.*`: `PRAGMA integrity_check`; the journal mode and page size (reported).
/// - `shipping.*`: every row in the main file (no non-empty `-wal` beside it), no `-journal`.
/// - `model.*`: the store's version hashes against the model's; `Z_MODELCACHE` against the model
///   on what the version hashes cover, as Core Data tells versions apart (user info, derived
///   attribute details and inherited properties the archive repeats do not count).
/// - `layout.*`: a `Z_PRIMARYKEY` row for every entity; `Z_MAX` ≥ the largest `Z_PK` of each
///   table; every `Z_ENT` known and in its family's table; `Z_OPT` ≥ 1; ordering keys
///   (`Z_FOK_…`, join-table order columns) present and not shared within one owner.
/// - `graph.*`: no to-one key to a missing object; no join row whose either side is missing;
///   one-to-one inverses agreeing; no object of an abstract entity; no object left pointing
///   at a missing owner whose delete rule toward it is Cascade.
/// - `validation.objects`: every object against the model's rules (``StoreValidator``).
/// - `expect.*`: each line of an expectations file, when given.
///
/// ```swift
/// let store = try PersistentStore(path: "seed.sqlite", model: model)   // read-only
/// let checks = try StoreVerifier(store: store).verify()
/// let fit = checks.allSatisfy { $0.status != .failed }
/// ```
public struct StoreVerifier {
    /// The store checked.
    public let store: PersistentStore

    /// A verifier for a store.
    public init(store: PersistentStore) {
        self.store = store
    }

    /// Runs every check, then each expectation, in order, handing each result to `report`
    /// as it is known; returns them all.
    @discardableResult
    public func verify(expectations: [StoreExpectation] = [], report: (VerificationCheck) -> Void = { _ in }) throws -> [VerificationCheck] {
        var results: [VerificationCheck] = []
        func add(_ check: VerificationCheck) {
            results.append(check)
            report(check)
        }
        for check in try sqliteChecks() { add(check) }
        for check in shippingChecks() { add(check) }
        for check in try modelChecks() { add(check) }
        for check in try layoutChecks() { add(check) }
        for check in try graphChecks() { add(check) }
        add(try validationCheck())
        for expectation in expectations { add(check(expectation)) }
        return results
    }

    // MARK: - SQLite

    private func sqliteChecks() throws -> [VerificationCheck] {
        let integrity = try store.integrityCheck()
        let journal: String
        switch store.headerJournalVersions() {
        case let (write, read)? where write == 2 && read == 2: journal = "wal (write-ahead log)"
        case let (write, read)? where write == 1 && read == 1: journal = "rollback journal (delete)"
        case let (write, read)?: journal = "header versions \(write)/\(read)"
        case nil: journal = "unknown (header not read)"
        }
        return [
            integrity == ["ok"]
                ? VerificationCheck(name: "sqlite.integrity", status: .passed, detail: "PRAGMA integrity_check: ok")
                : .judging("sqlite.integrity", problems: integrity),
            VerificationCheck(name: "sqlite.journal-mode", status: .info, detail: journal),
            VerificationCheck(name: "sqlite.page-size", status: .info, detail: "\(try store.pageSize()) bytes"),
        ]
    }

    // MARK: - Shipping state

    private func shippingChecks() -> [VerificationCheck] {
        let path = store.resolvedPath
        let walSize = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue
        let wal: VerificationCheck
        if let walSize, walSize > 0 {
            wal = VerificationCheck(
                name: "shipping.wal", status: .failed, found: 1,
                detail: "\((path as NSString).lastPathComponent)-wal holds \(walSize) bytes: rows may live only in the log, "
                    + "and a copy of the main file alone would lose them; checkpoint it first: "
                    + "sqlite3 STORE 'PRAGMA wal_checkpoint(TRUNCATE)'")
        } else {
            wal = VerificationCheck(name: "shipping.wal", status: .passed, detail: walSize == nil ? "no -wal" : "-wal is empty")
        }
        let journal: VerificationCheck =
            FileManager.default.fileExists(atPath: path + "-journal")
            ? VerificationCheck(
                name: "shipping.journal", status: .failed, found: 1,
                detail: "a -journal is left beside the store: a write was cut short; open the store once with sqlite3 to roll it back")
            : VerificationCheck(name: "shipping.journal", status: .passed, detail: "no -journal")
        return [wal, journal]
    }

    // MARK: - Model

    private func modelChecks() throws -> [VerificationCheck] {
        let modelHashes = store.model.entityVersionHashes
        let storeHashes = store.metadata.versionHashes
        let version: VerificationCheck
        if case .inferred = store.modelOrigin {
            version = VerificationCheck(
                name: "model.version", status: .skipped,
                detail: "no model given (the model was inferred from the schema); open the store with the app's model to compare")
        } else if storeHashes.isEmpty {
            version = VerificationCheck(name: "model.version", status: .skipped, detail: "the metadata has no version hashes")
        } else {
            var problems: [String] = []
            for name in Set(modelHashes.keys).union(storeHashes.keys).sorted() {
                switch (storeHashes[name], modelHashes[name]) {
                case (nil, _?): problems.append("\(name): in the model, not in the store's hashes")
                case (_?, nil): problems.append("\(name): in the store's hashes, not in the model")
                case let (stored?, computed?) where stored != computed: problems.append("\(name): version hash differs")
                default: break
                }
            }
            version = .judging("model.version", problems: problems, passed: "\(storeHashes.count) entity version hashes agree")
        }
        return [version, try modelCacheCheck()]
    }

    private func modelCacheCheck() throws -> VerificationCheck {
        let blobs = try store.modelCacheBlobs()
        guard let blob = blobs.first else {
            return VerificationCheck(name: "model.cache", status: .passed, detail: "no Z_MODELCACHE")
        }
        let cached: ModelCache
        do {
            cached = try ModelCache(compressed: blob)
        } catch {
            return VerificationCheck(name: "model.cache", status: .failed, found: 1, detail: "Z_MODELCACHE does not decode: \(error)")
        }
        // Core Data takes two models for one version when their entity version hashes agree;
        // the archive holds no hashes, so compare what they cover. Where GraphStore's hashes
        // of the two already agree, so do those inputs.
        if cached.model.computedVersionHashes == store.model.computedVersionHashes {
            return VerificationCheck(name: "model.cache", status: .passed, detail: "Z_MODELCACHE agrees with the model")
        }
        let problems = store.model.versionHashDifferences(from: cached.model, names: ("the model", "Z_MODELCACHE"))
        return .judging(
            "model.cache", problems: problems,
            passed: "Z_MODELCACHE agrees with the model on every input of the version hashes (derived attributes by name and type)")
    }

    // MARK: - Layout

    private var roots: [EntityMapping] { store.allMappings.filter { $0.superNumber == 0 } }

    private func layoutChecks() throws -> [VerificationCheck] {
        let entries = store.primaryKeyEntries
        let missing = store.allMappings.filter { entries[$0.number] == nil }.map { "\($0.name) has no Z_PRIMARYKEY row" }
        var stale: [String] = []
        var unknown: [String] = []
        var versions: [String] = []
        var unknownCount = 0
        var versionCount = 0
        for root in roots where store.table(of: root) != nil {
            let largest = try store.largestPrimaryKey(table: root.table)
            let counter = Int(entries[root.number]?.max ?? 0)
            if counter < largest { stale.append("\(root.name): Z_MAX \(counter) < largest Z_PK \(largest) in \(root.table)") }
            for (number, rows) in try store.unexpectedEntityNumbers(table: root.table, allowed: root.numbersWithDescendants) {
                unknownCount += rows
                let owner = number.flatMap { store.mapping(number: $0) }.map { "entity \($0.name), stored in \($0.table)" } ?? "no entity"
                unknown.append("\(rows) row\(rows == 1 ? "" : "s") of \(root.table) with Z_ENT \(number.map(String.init) ?? "NULL") (\(owner))")
            }
            let unversioned = try store.rowsWithoutVersion(table: root.table)
            if unversioned > 0 {
                versionCount += unversioned
                versions.append("\(unversioned) row\(unversioned == 1 ? "" : "s") of \(root.table) with Z_OPT < 1 or NULL")
            }
        }
        return [
            .judging("layout.primary-keys", problems: missing, passed: "\(entries.count) Z_PRIMARYKEY rows"),
            .judging("layout.z-max", problems: stale, passed: "every Z_MAX ≥ its table's largest Z_PK"),
            .judging("layout.z-ent", problems: unknown, total: unknownCount, passed: "every Z_ENT known, in its family's table"),
            .judging("layout.z-opt", problems: versions, total: versionCount, passed: "every Z_OPT ≥ 1"),
            try orderingCheck(),
        ]
    }

    private func orderingCheck() throws -> VerificationCheck {
        var problems: [String] = []
        var total = 0
        func note(_ place: String, _ found: (missing: Int, duplicated: Int)) {
            if found.missing > 0 { problems.append("\(place): \(found.missing) member\(found.missing == 1 ? "" : "s") without an ordering key") }
            if found.duplicated > 0 { problems.append("\(place): \(found.duplicated) ordering key\(found.duplicated == 1 ? "" : "s") shared within one owner") }
            total += found.missing + found.duplicated
        }
        var joinsSeen = Set<String>()
        for mapping in store.allMappings {
            for r in mapping.relationships where r.relationship.inverse.map({ _ in true }) ?? true {
                switch r.storage {
                case .foreignKey(let column, _, let orderColumn?):
                    guard mapping.entity.relationship(named: r.relationship.name) != nil else { continue }
                    let found = try store.orderingProblems(
                        table: mapping.table, ownerColumn: column, orderColumn: orderColumn, entityNumbers: [mapping.number])
                    note("\(mapping.name).\(r.relationship.name) (\(mapping.table).\(orderColumn))", found)
                case .joinTable(let join):
                    guard joinsSeen.insert(join.table + r.relationship.name).inserted else { continue }
                    if let order = join.orderColumn, r.relationship.isOrdered {
                        note("\(mapping.name).\(r.relationship.name) (\(join.table).\(order))",
                             try store.orderingProblems(table: join.table, ownerColumn: join.sourceColumn, orderColumn: order, entityNumbers: nil))
                    }
                default:
                    continue
                }
            }
        }
        return .judging("layout.ordering", problems: problems, total: total, passed: "ordering keys present and distinct")
    }

    // MARK: - Graph

    private func graphChecks() throws -> [VerificationCheck] {
        var dangling: [String] = []
        var danglingCount = 0
        var cascaded: [String] = []
        var cascadedCount = 0
        var inverses: [String] = []
        var inverseCount = 0
        var joinRows: [String] = []
        var joinCount = 0
        var abstract: [String] = []
        var joinsSeen = Set<String>()
        let limit = VerificationCheck.examplesShown
        for mapping in store.allMappings {
            if mapping.entity.isAbstract, store.table(of: mapping) != nil {
                let rows = try store.rowCount(table: mapping.table, entityNumbers: [mapping.number])
                if rows > 0 { abstract.append("\(rows) object\(rows == 1 ? "" : "s") of abstract entity \(mapping.name)") }
            }
            for (index, r) in mapping.relationships.enumerated() where mapping.entity.relationship(named: r.relationship.name) != nil {
                switch r.storage {
                case .foreignKey:
                    let inverseRule = r.relationship.inverse.flatMap { store.model.entity(named: r.relationship.destination)?.relationship(named: $0) }?.deleteRule
                    try store.forEachDanglingReference(mapping, relationship: index) { row, key in
                        let text = "\(mapping.name) p\(row).\(r.relationship.name) → \(r.relationship.destination) p\(key), which does not exist"
                        danglingCount += 1
                        if dangling.count < limit { dangling.append(text) }
                        if inverseRule == .cascade {
                            cascadedCount += 1
                            if cascaded.count < limit { cascaded.append(text + " (its delete rule is Cascade: this object should have gone with it)") }
                        }
                    }
                    if !r.relationship.isToMany {
                        try store.forEachMismatchedInverse(mapping, relationship: index) { row, key, back in
                            inverseCount += 1
                            if inverses.count < limit {
                                inverses.append("\(mapping.name) p\(row).\(r.relationship.name) → p\(key), whose \(r.relationship.inverse ?? "inverse") is \(back.map { "p\($0)" } ?? "nil")")
                            }
                        }
                    }
                case .joinTable(let join):
                    guard joinsSeen.insert(join.table + "." + join.sourceColumn).inserted else { continue }
                    try store.forEachDanglingJoinRow(r, sourceTable: mapping.table) { source, destination in
                        joinCount += 1
                        if joinRows.count < limit { joinRows.append("\(join.table): \(mapping.name) p\(source) → missing \(r.relationship.destination) p\(destination)") }
                    }
                    let orphans = try store.joinRowsWithoutSource(join, sourceTable: mapping.table, limit: 1000)
                    joinCount += orphans.count
                    for (source, destination) in orphans.prefix(max(0, limit - joinRows.count)) {
                        joinRows.append("\(join.table): missing \(mapping.name) p\(source) → \(r.relationship.destination) p\(destination)")
                    }
                default:
                    continue
                }
            }
        }
        return [
            .judging("graph.to-one", problems: dangling, total: danglingCount, passed: "every to-one key names an object"),
            .judging("graph.join-rows", problems: joinRows, total: joinCount, passed: "every join row joins two objects"),
            .judging("graph.inverses", problems: inverses, total: inverseCount, passed: "one-to-one inverses agree"),
            .judging("graph.abstract", problems: abstract, passed: "no object of an abstract entity"),
            .judging("graph.delete-rules", problems: cascaded, total: cascadedCount, passed: "no object outlived a Cascade owner"),
        ]
    }

    // MARK: - Validation

    private func validationCheck() throws -> VerificationCheck {
        var problems: [String] = []
        let summary = try StoreValidator(store: store).validate { error in
            if problems.count < VerificationCheck.examplesShown { problems.append("\(error)") }
        }
        return .judging("validation.objects", problems: problems, total: summary.failures, passed: "\(summary.objectsChecked) objects valid")
    }

    // MARK: - Expectations

    /// One expectation as a check named `expect.LINE`, whose `found` is the number of
    /// objects the line counted, whether it holds or not (`count Book == 3` that fails with
    /// one book finds 1); a line that cannot be counted fails with 0.
    public func check(_ expectation: StoreExpectation) -> VerificationCheck {
        let name = "expect.\(expectation.line)"
        do {
            let predicate = try expectation.predicate.map { try ObjectPredicate(format: $0) }
            let count = try ManagedObjectContext(store: store).count(for: FetchRequest(entityName: expectation.entity, predicate: predicate))
            let holds = expectation.holds(forCount: count)
            return VerificationCheck(
                name: name, status: holds ? .passed : .failed, found: count,
                detail: "\(expectation.text) (\(count) object\(count == 1 ? "" : "s"))")
        } catch {
            return VerificationCheck(name: name, status: .failed, found: 0, detail: "\(expectation.text): \(error)")
        }
    }
}
