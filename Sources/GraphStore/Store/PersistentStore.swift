import Foundation

/// Where a store's model came from.
public enum ModelOrigin: Sendable, Hashable, CustomStringConvertible {
    /// Given by the program (built in Swift).
    case given
    /// Read from a model file at this path.
    case file(String)
    /// Decoded from the store's own `Z_MODELCACHE`.
    case modelCache
    /// Inferred from the store's schema; the notes say what was guessed.
    case inferred(notes: [String])

    public var description: String {
        switch self {
        case .given: "given by the program"
        case .file(let path): "model file \(path)"
        case .modelCache: "the store's Z_MODELCACHE"
        case .inferred: "inferred from the store's schema"
        }
    }
}

extension ModelOrigin {
    /// How a note of an inferred model ends when the store names entities as an older
    /// model did while its metadata lists the current names (a renaming migration): opening
    /// the store with its current model gives the current names. A program that opens stores
    /// its own way adds its own advice after it.
    ///
    /// ```swift
    /// if case .inferred(let notes) = store.modelOrigin, notes.contains(where: { $0.hasSuffix(ModelOrigin.renamingMigrationNote) }) {
    ///     print("open the store with the app's current model to see the current entity names")
    /// }
    /// ```
    public static let renamingMigrationNote = "(a renaming migration)"
}

/// An SQLite store in Core Data's layout, opened with a model.
///
/// Opening reads the store's own bookkeeping (`Z_PRIMARYKEY`, `Z_METADATA`, the tables'
/// DDL) and reconciles it with the model by entity name; it never rebuilds or alters
/// anything. A read-only store is opened so that not one byte of the file, its `-wal` or
/// its `-shm` changes (a log is read in place with its index in memory, or, when another
/// connection uses it or a journal must be rolled back, from a private copy removed however
/// the process ends: see `ReadOnlyAccess`). A path that is a symbolic link is followed first:
/// the log that counts is the one beside the real file.
///
/// ```swift
/// let store = try PersistentStore.create(at: "/tmp/books.sqlite", model: model)
/// let reader = try PersistentStore(path: "/tmp/books.sqlite")           // read-only, model inferred
/// let writer = try PersistentStore(path: "/tmp/books.sqlite", model: model, readOnly: false)
/// ```
public final class PersistentStore {
    /// The store file's path, as given (messages name the store by it).
    public let path: String
    /// The store file's real path: ``path`` with every symbolic link followed (chains and
    /// relative links too). The store is read, and written, there, and its `-wal`,
    /// `-shm` and `-journal` are this path with those suffixes.
    ///
    /// ```swift
    /// let store = try PersistentStore(path: "latest.sqlite")   // a link to archive/2024.sqlite
    /// store.resolvedPath                                       // "/data/archive/2024.sqlite"
    /// ```
    public let resolvedPath: String
    /// Whether writes are refused.
    public let isReadOnly: Bool
    /// The store's support folder, beside the real store file (``resolvedPath``): where the
    /// values of attributes that allow external storage are kept. A store read from a
    /// private copy reads it there, in place.
    ///
    /// ```swift
    /// store.supportFolder.externalDataPath   // "/data/.Books_SUPPORT/_EXTERNAL_DATA"
    /// ```
    public let supportFolder: StoreSupportFolder
    /// The model the store was opened with.
    public let model: ManagedObjectModel
    /// Where that model came from.
    public let modelOrigin: ModelOrigin
    /// The `Z_METADATA` row.
    public internal(set) var metadata: StoreMetadata
    /// The store's tables, columns and indexes.
    public let schema: DatabaseSchema
    /// The `Z_PRIMARYKEY` rows (the store's entities and their key counters), by entity
    /// number.
    public internal(set) var primaryKeyEntries: [Int: PrimaryKeyEntry]
    /// Oddities found while opening (a `Z_MAX` below the largest key, unknown entities, ...).
    public let anomalies: [String]
    /// Why the store's own `Z_MODELCACHE` was not used when the store was opened without a
    /// model (it does not decode, or does not fit the store's tables), so that the model was
    /// inferred instead; nil when it was used, when the store has none, or when a model was
    /// given.
    ///
    /// ```swift
    /// if let problem = store.modelCacheProblem { print("warning: \(problem)") }
    /// ```
    public let modelCacheProblem: ModelCacheProblem?
    /// The connection; SQL outside `Store/` and `SQLite/` goes through the store's methods.
    let connection: Connection
    let mappings: [String: EntityMapping]
    private let mappingsByNumber: [Int: EntityMapping]
    /// The inheritance roots, by their upper-cased table name.
    private let rootsByTable: [String: EntityMapping]
    /// The private copy the store reads (a read-only store with a log), if any.
    let privateCopy: String?
    /// The store's files, held open for as long as the store is (see `StoreFileHandle`).
    let file: StoreFile.Opened
    /// The files read-only SQL attached (`ATTACH 'seed.sqlite' AS seed`).
    let attachedFiles = AttachedFiles()
    /// A writable store's share of GraphStore's writer lock (a migration's exclusive one
    /// when the migration opened it), held for as long as the store is open.
    let writerLock: StoreWriterLock?
    // Per-row statements of the save path, read once per row; only `statement(_:for:in:)`
    // touches them, never overlapping, so exclusivity is not checked at run time (see
    // `UncheckedStorage.swift`).
    let insertStatements = UncheckedCell(ByEntityNumber<Statement>())
    /// What derived-attribute triggers reported since the last save took them
    /// (`PersistentStore+DerivedAttributes.swift`).
    let derivedValueReports = UncheckedCell<[DerivedValueReport]>([])
    /// The external data files the running transaction writes and releases (see
    /// ``ExternalDataFiles``); made on first use.
    var externalFiles: ExternalDataFiles {
        if let files = externalFilesCell.value { return files }
        let files = ExternalDataFiles(folder: supportFolder)
        externalFilesCell.value = files
        return files
    }
    private let externalFilesCell = UncheckedCell<ExternalDataFiles?>(nil)

    /// Makes the files this store's transactions write belong to `span` as well, so that a
    /// migration writing this store in batches can remove them all if it fails; the store
    /// must have been opened with `span`'s folder as its support folder.
    func writesExternalData(within span: ExternalDataFiles) {
        externalFilesCell.value = ExternalDataFiles(folder: supportFolder, span: span)
    }

    /// The size above which a value of an attribute that allows external storage is written
    /// to a file of the support folder rather than inline: 128 KiB. Core Data decides per
    /// value and documents no number; 128 KiB is the most recent measured figure (see
    /// `docs/values.md`). Either way a store reads both forms.
    public static let externalDataThreshold = 128 * 1024
    /// The largest external data file read as a value: 1 GiB. Core Data's references
    /// hold no length, so a file larger than this (or a sparse one claiming terabytes) is
    /// refused (``ExternalDataProblem/tooLarge(size:limit:)``) rather than read into memory.
    public static let externalDataSizeLimit = 1 << 30
    let updateStatements = UncheckedCell(ByEntityNumber<Statement>())
    /// Fetch statements and the predicate functions' registration (see `PersistentStore+Fetching.swift`).
    let fetchSupport = FetchSupport()
    /// The compiled fetch queries, by fingerprint (see ``QueryCache``).
    let queryCache = QueryCache()

    /// The store's UUID (`Z_UUID`), which object-ID URIs carry.
    public var uuid: String { metadata.uuid }

    // MARK: - Opening

    /// Opens an existing store.
    ///
    /// - Parameters:
    ///   - model: the model to use; nil to infer one from the schema.
    ///   - readOnly: true (the default) guarantees the files are never written.
    public convenience init(path: String, model: ManagedObjectModel? = nil, readOnly: Bool = true) throws(StoreError) {
        try self.init(path: path, model: model, origin: model == nil ? nil : .given, readOnly: readOnly)
    }

    /// Opens an existing store with a model from a known origin (used by model readers).
    ///
    /// Before SQLite sees the file, symbolic links are followed and the file is checked:
    /// a regular file (not a FIFO, device or directory), readable (and writable, unless
    /// `readOnly`), with an SQLite header, not cut short, and not being written by another
    /// process in a way this open cannot share (``StoreError/locked(path:holder:)``) — a lock
    /// that goes within SQLite's busy timeout (5 s) is waited for, as SQLite waits.
    public convenience init(path: String, model: ManagedObjectModel?, origin: ModelOrigin?, readOnly: Bool = true) throws(StoreError) {
        try self.init(path: path, model: model, origin: origin, readOnly: readOnly, supportFolder: nil)
    }

    /// Opens an existing store whose external data files are in `supportFolder` rather than
    /// beside the file (nil: beside it): a migrated file, checked before it takes the name,
    /// and so the folder, of the store it replaces.
    ///
    /// A store opened for writing holds a share of GraphStore's writer lock
    /// (``StoreWriterLock``) for as long as it is open, waiting up to the busy timeout for a
    /// migration that holds it; `migrationLock` is the exclusive lock of the migration that
    /// opens the store itself, used instead.
    init(
        path: String, model: ManagedObjectModel?, origin: ModelOrigin?, readOnly: Bool, supportFolder: StoreSupportFolder?,
        migrationLock: StoreWriterLock? = nil
    ) throws(StoreError) {
        let (file, writerLock) = try PersistentStore.openFile(path, readOnly: readOnly, migrationLock: migrationLock)
        if let holder = StoreLocks.holder(of: file, forWriting: !readOnly, afterWaiting: .milliseconds(Int(Connection.defaultBusyTimeout))) {
            throw .locked(path: path, holder: holder > 0 ? holder : nil)
        }
        var copy: String?
        let connection: Connection
        if readOnly {
            (connection, copy) = try StoreFile.readOnlyConnection(to: file, path: path)
        } else {
            do {
                connection = try Connection(path: file.resolvedPath, mode: .readWrite)
            } catch {
                throw StoreError.opening(error, path: path, file: file, connection: nil, readOnly: false) ?? .notADatabase(path: path, reason: error.message)
            }
        }
        do {
            let opening = Opening(path: path, file: file, connection: connection, readOnly: readOnly)
            let opened = try PersistentStore.read(opening, model: model, origin: origin)
            self.path = path
            self.resolvedPath = file.resolvedPath
            self.supportFolder = supportFolder ?? StoreSupportFolder(storePath: file.resolvedPath)
            self.isReadOnly = readOnly
            self.connection = connection
            self.privateCopy = copy
            self.file = file
            self.writerLock = writerLock
            self.schema = opened.schema
            self.metadata = opened.metadata
            self.primaryKeyEntries = opened.records
            self.model = opened.model
            self.modelOrigin = opened.origin
            self.modelCacheProblem = opened.modelCacheProblem
            self.mappings = opened.mappings
            self.mappingsByNumber = Dictionary(opened.mappings.values.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
            self.rootsByTable = Dictionary(
                opened.mappings.values.filter { $0.superNumber == 0 }.map { ($0.table.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
            self.anomalies = opened.anomalies
        } catch {
            if readOnly { StoreFile.release(readOnly: connection, privateCopy: copy, file: file) }
            throw error
        }
        if !readOnly { try registerTriggerFunctions() }
    }

    deinit {
        if isReadOnly { StoreFile.release(readOnly: connection, privateCopy: privateCopy, file: file) }
    }

    /// The store's file, checked and open, and for writing the writer lock on it. A file
    /// replaced while the lock was waited for (a migration finished meanwhile) is opened
    /// again: the lock must be on the file the path names.
    private static func openFile(_ path: String, readOnly: Bool, migrationLock: StoreWriterLock?) throws(StoreError) -> (StoreFile.Opened, StoreWriterLock?) {
        for _ in 0..<3 {
            let file = try StoreFile.open(try StoreFile.resolve(path), path: path, forWriting: !readOnly)
            if readOnly { return (file, nil) }
            if let migrationLock, migrationLock.resolvedPath == file.resolvedPath { return (file, migrationLock) }
            let patience = Duration.milliseconds(Int(Connection.defaultBusyTimeout))
            switch StoreWriterLock.take(.writer, on: file.resolvedPath, patience: patience) {
            case .success(let lock):
                guard file.main.isStill(at: file.resolvedPath) else { continue }
                return (file, lock)
            case .failure(.replaced):
                continue
            case .failure(.held(let holder)):
                throw .beingMigrated(path: path, holder: holder)
            case .failure(.system(let error)):
                throw error.storeError(path: path, doing: "lock it for writing", forWriting: true)
            }
        }
        throw .replaced(path: path)
    }

    /// Refuses a write when the path no longer names the file the store opened: another
    /// file was put in its place (a migration by a program that does not honour the writer
    /// lock, a copy) or it was removed. Writing on would write the old file, now a backup
    /// or gone, and the log beside the new one.
    func checkStillInPlace() throws(StoreError) {
        guard file.main.isStill(at: resolvedPath) else { throw .replaced(path: path) }
    }

    private struct Opened {
        var schema: DatabaseSchema
        var metadata: StoreMetadata
        var records: [Int: PrimaryKeyEntry]
        var model: ManagedObjectModel
        var origin: ModelOrigin
        var modelCacheProblem: ModelCacheProblem?
        var mappings: [String: EntityMapping]
        var anomalies: [String]
    }

    private static func read(_ opening: Opening, model: ManagedObjectModel?, origin: ModelOrigin?) throws(StoreError) -> Opened {
        let (path, connection) = (opening.path, opening.connection)
        let schema: DatabaseSchema
        do {
            schema = try DatabaseSchema(reading: connection)
        } catch {
            throw opening.failure(error) ?? .notADatabase(path: path, reason: error.message)
        }
        let missing = ["Z_PRIMARYKEY", "Z_METADATA"].filter { schema.table($0) == nil }
        guard missing.isEmpty else { throw .notCoreData(path: path, missing: missing) }
        let metadata = try StoreMetadata(reading: connection, path: path, failure: opening.failure)
        let records = try readRecords(opening)
        var anomalies: [String] = []
        let chosen: ModelLocator.Found
        if let model {
            chosen = ModelLocator.Found(model: model, origin: origin ?? .given, cacheProblem: nil)
        } else {
            chosen = try ModelLocator.model(forStoreAt: path, sampler: SchemaSampler(connection: connection), schema: schema, records: records, metadata: metadata)
        }
        let numbering = PrimaryKeyEntryMatcher(model: chosen.model, records: records, metadata: metadata, schema: schema)
        let numbers = numbering.numbers
        anomalies += numbering.notes
        var differences = numbering.differences
        var resolver = LayoutResolver(model: chosen.model, numbers: numbers, schema: schema, storeNames: numbering.storeNames, storeUUID: metadata.uuid)
        let mappings = resolver.resolve()
        differences += resolver.differences
        guard differences.isEmpty else { throw .modelMismatch(path: path, differences: differences) }
        for mapping in mappings.values where mapping.entity.parent == nil {
            guard let record = records[mapping.number],
                case .integer(let top)? = try? connection.scalar("SELECT MAX(\(mapping.keys.integer("Z_PK"))) FROM \(mapping.table)")
            else { continue }
            if record.max < top {
                anomalies.append("entity \(mapping.name): Z_MAX is \(record.max) but the largest Z_PK is \(top); new keys will start above \(top)")
            }
        }
        return Opened(
            schema: schema, metadata: metadata, records: records, model: chosen.model, origin: chosen.origin,
            modelCacheProblem: chosen.cacheProblem, mappings: mappings, anomalies: anomalies)
    }

    /// The `Z_PRIMARYKEY` rows, each number checked (a real beyond `Int64` or text is an
    /// error naming its row and column, not a crash), and `Z_SUPER` checked for cycles.
    private static func readRecords(_ opening: Opening) throws(StoreError) -> [Int: PrimaryKeyEntry] {
        let path = opening.path
        var records: [Int: PrimaryKeyEntry] = [:]
        do {
            for row in try opening.connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") {
                guard case .text(let name) = row[1] else {
                    throw StoreError.malformedStore(path: path, reason: "a Z_PRIMARYKEY row has no entity name")
                }
                // Z_ENT is the table's INTEGER PRIMARY KEY, so always an integer; a NULL
                // Z_SUPER or Z_MAX reads as 0, as Core Data's own rows never have one.
                guard case .integer(let entityNumber) = row[0] else {
                    throw StoreError.malformedStore(path: path, reason: "Z_PRIMARYKEY row \(name) has no entity number")
                }
                func number(_ index: Int, _ column: String) throws(StoreError) -> Int64 {
                    if row[index] == .null { return 0 }
                    guard let value = row[index].integer else {
                        throw .malformedInteger(
                            path: path, table: "Z_PRIMARYKEY", row: "Z_ENT \(entityNumber) (\(name))", column: column, found: row[index].shownAsFound)
                    }
                    return value
                }
                let entity = Int(entityNumber)
                records[entity] = PrimaryKeyEntry(number: entity, name: name, superNumber: Int(try number(2, "Z_SUPER")), max: try number(3, "Z_MAX"))
            }
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw opening.failure(error) ?? .malformedStore(path: path, reason: "Z_PRIMARYKEY cannot be read: \(error.message)")
        } catch {
            throw .malformedStore(path: path, reason: "\(error)")
        }
        let numbers = records.keys.sorted()
        let walk = InheritanceCycles(nodes: numbers, parent: { records[$0]?.superNumber })
        if let cycle = walk.first {
            throw .inheritanceCycle(path: path, entities: cycle.map { records[$0]?.name ?? "Z_ENT \($0)" })
        }
        if let deepest = walk.deepest, deepest.depth > InheritanceCycles<Int>.maximumDepth {
            let name = records[deepest.node]?.name ?? "Z_ENT \(deepest.node)"
            throw .malformedStore(
                path: path,
                reason: "Z_PRIMARYKEY's Z_SUPER makes entity \(name) inherit through \(deepest.depth) levels; GraphStore reads at most \(InheritanceCycles<Int>.maximumDepth)")
        }
        return records
    }

    /// The SQL functions Core Data's derived-attribute triggers call, so that writes to
    /// tables with such triggers do not fail with "no such function".
    private func registerTriggerFunctions() throws(StoreError) {
        try registerDerivationFunctions()
    }

    // MARK: - Creating

    /// Creates a new, empty store in Core Data's layout for a model, and opens it for writing.
    public static func create(at path: String, model: ManagedObjectModel) throws(StoreError) -> PersistentStore {
        try create(at: path, model: model, metadata: StoreMetadata(newStoreFor: model))
    }

    /// Creates a new, empty store with this metadata (a migration keeps the store's UUID),
    /// whose external data files are in `supportFolder` (nil: beside it).
    static func create(
        at path: String, model: ManagedObjectModel, metadata: StoreMetadata, supportFolder: StoreSupportFolder? = nil
    ) throws(StoreError) -> PersistentStore {
        guard !FileManager.default.fileExists(atPath: path) else { throw .alreadyExists(path: path) }
        var numbers: [String: Int] = [:]
        for (i, entity) in model.entitiesInNumberingOrder.enumerated() { numbers[entity.name] = i + 1 }
        var resolver = LayoutResolver(model: model, numbers: numbers, schema: nil, storeUUID: metadata.uuid)
        let mappings = resolver.resolve()
        do {
            let connection = try Connection(path: path, mode: .create)
            try connection.executeScript("PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2; PRAGMA journal_mode = WAL")
            try connection.transaction {
                for statement in SchemaWriter(model: model, mappings: mappings).statements() {
                    try connection.execute(statement)
                }
                let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
                for entity in model.entitiesInNumberingOrder {
                    try insert.execute([
                        .integer(Int64(numbers[entity.name] ?? 0)), .text(entity.name),
                        .integer(Int64(entity.parent.flatMap { numbers[$0] } ?? 0)),
                    ])
                }
                try connection.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
                    .execute([.text(metadata.uuid), .blob(try metadata.encodedProperties())])
            }
        } catch let error as StoreError {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        } catch let error as SQLiteError {
            try? FileManager.default.removeItem(atPath: path)
            throw .sqlite(error)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw .malformedStore(path: path, reason: "\(error)")
        }
        return try PersistentStore(path: path, model: model, origin: .given, readOnly: false, supportFolder: supportFolder)
    }

    // MARK: - Entities

    /// The mapping of an entity, by name.
    public func mapping(for entity: String) throws(StoreError) -> EntityMapping {
        guard let mapping = mappings[entity] else { throw .unknownEntity(entity) }
        return mapping
    }

    /// The mapping of an entity, by its number.
    public func mapping(number: Int) -> EntityMapping? { mappingsByNumber[number] }

    /// The inheritance root whose table this is.
    func root(ofTable table: String) -> EntityMapping? { rootsByTable[table.uppercased()] }

    /// All entity mappings in entity-number order.
    public var allMappings: [EntityMapping] { mappings.values.sorted { $0.number < $1.number } }

    /// The mapping of an entity and of each of its descendants.
    public func family(of mapping: EntityMapping) -> [EntityMapping] {
        mapping.numbersWithDescendants.compactMap { mappingsByNumber[$0] }
    }

    /// The number of stored objects of exactly this entity (sub-entities not included),
    /// or of the entity and its sub-entities: the objects a fetch reads (an entity alone in
    /// its table counts every row, as Core Data does; in a table shared with sub-entities, a
    /// row whose `Z_ENT` is no entity of the family is no object and is not counted).
    public func count(of mapping: EntityMapping, includingSubentities: Bool = false) throws(StoreError) -> Int {
        let family = includingSubentities ? self.family(of: mapping) : [mapping]
        let filter = objectFilter(family, alias: nil)
        do {
            let value = try connection.scalar("SELECT COUNT(*) FROM \(mapping.table)" + (filter.map { " WHERE " + $0.sql } ?? ""), filter?.arguments ?? [])
            return Int(value?.integer ?? 0)
        } catch {
            throw .sqlite(error)
        }
    }

    /// The condition that keeps exactly the rows of a family that a fetch makes objects of,
    /// with its arguments: none for an entity alone in its table, `Z_ENT IN (…)` (read as an
    /// integer) otherwise, also for a whole hierarchy, whose fetch reads every row of the
    /// table as Core Data does and leaves out those of no entity of it. Counts, lookups and
    /// raw rows use it, so that they find the objects a fetch reads.
    func objectFilter(_ family: [EntityMapping], alias: String?) -> (sql: String, arguments: [SQLiteValue])? {
        guard let first = family.first, !first.isAloneInTable else { return nil }
        let numbers = family.map { SQLiteValue.integer(Int64($0.number)) }
        return ("\(first.keys.integer("Z_ENT", alias: alias)) IN (\(placeholders(numbers.count)))", numbers)
    }

    func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension SQLiteValue {
    /// The value as a whole number of 64 bits, when it is one: an integer, a real with no
    /// fraction inside `Int64`'s range, or text that spells one. A real beyond the range,
    /// infinite or NaN is nil, never a trap.
    var integer: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v): Int64(exactly: v)
        case .text(let s): Int64(s)
        default: nil
        }
    }
}
