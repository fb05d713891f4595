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

/// An SQLite store in Core Data's layout, opened with a model.
///
/// Opening reads the store's own bookkeeping (`Z_PRIMARYKEY`, `Z_METADATA`, the tables'
/// DDL) and reconciles it with the model by entity name; it never rebuilds or alters
/// anything. A read-only store is opened so that not one byte of the file, its `-wal` or
/// its `-shm` changes (when a log must be replayed, a private copy is read instead).
///
/// ```swift
/// let store = try PersistentStore.create(at: "/tmp/books.sqlite", model: model)
/// let reader = try PersistentStore(path: "/tmp/books.sqlite")           // read-only, model inferred
/// let writer = try PersistentStore(path: "/tmp/books.sqlite", model: model, readOnly: false)
/// ```
public final class PersistentStore {
    /// The store file's path, as given.
    public let path: String
    /// Whether writes are refused.
    public let isReadOnly: Bool
    /// The model the store was opened with.
    public let model: ManagedObjectModel
    /// Where that model came from.
    public let modelOrigin: ModelOrigin
    /// The `Z_METADATA` row.
    public private(set) var metadata: StoreMetadata
    /// The store's tables, columns and indexes.
    public let schema: DatabaseSchema
    /// The `Z_PRIMARYKEY` rows, by entity number.
    public internal(set) var records: [Int: EntityRecord]
    /// Oddities found while opening (a `Z_MAX` below the largest key, unknown entities, ...).
    public let anomalies: [String]
    /// The connection; SQL outside `Store/` and `SQLite/` goes through the store's methods.
    let connection: Connection
    let mappings: [String: EntityMapping]
    private let mappingsByNumber: [Int: EntityMapping]
    /// The private copy the store reads (a read-only store with a log), if any.
    let privateCopy: String?
    // Per-row statements of the save path, read once per row; only `statement(_:for:in:)`
    // touches them, never overlapping, so exclusivity is not checked at run time.
    @exclusivity(unchecked) var insertStatements = EntityNumberTable<Statement>()
    @exclusivity(unchecked) var updateStatements = EntityNumberTable<Statement>()
    /// Fetch statements and the predicate functions' registration (see `PersistentStore+Fetching.swift`).
    let fetchSupport = FetchSupport()
    /// The entity half of this store's object IDs, shared (see `Store/StoreEntityTable.swift`).
    let storeEntities = StoreEntityTable()

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
    public init(path: String, model: ManagedObjectModel?, origin: ModelOrigin?, readOnly: Bool = true) throws(StoreError) {
        try StoreFile.check(path)
        var copy: String?
        let connection: Connection
        do {
            if readOnly, StoreFile.hasLog(path) {
                copy = try StoreFile.privateCopy(of: path)
                connection = try Connection(path: copy ?? path, mode: .readWrite)
            } else if readOnly {
                connection = try Connection(path: StoreFile.immutableURI(path), mode: .readOnly)
            } else {
                connection = try Connection(path: path, mode: .readWrite)
            }
        } catch let error as SQLiteError {
            copy.map(StoreFile.removePrivateCopy)
            throw .notADatabase(path: path, reason: error.message)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .notADatabase(path: path, reason: "\(error)")
        }
        do {
            let opened = try PersistentStore.read(connection: connection, path: path, model: model, origin: origin)
            self.path = path
            self.isReadOnly = readOnly
            self.connection = connection
            self.privateCopy = copy
            self.schema = opened.schema
            self.metadata = opened.metadata
            self.records = opened.records
            self.model = opened.model
            self.modelOrigin = opened.origin
            self.mappings = opened.mappings
            self.mappingsByNumber = Dictionary(opened.mappings.values.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
            self.anomalies = opened.anomalies
        } catch {
            copy.map(StoreFile.removePrivateCopy)
            throw error
        }
        if !readOnly { try registerTriggerFunctions() }
    }

    deinit {
        privateCopy.map(StoreFile.removePrivateCopy)
    }

    private struct Opened {
        var schema: DatabaseSchema
        var metadata: StoreMetadata
        var records: [Int: EntityRecord]
        var model: ManagedObjectModel
        var origin: ModelOrigin
        var mappings: [String: EntityMapping]
        var anomalies: [String]
    }

    private static func read(connection: Connection, path: String, model: ManagedObjectModel?, origin: ModelOrigin?) throws(StoreError) -> Opened {
        let schema: DatabaseSchema
        do {
            schema = try DatabaseSchema(reading: connection)
        } catch {
            throw .notADatabase(path: path, reason: error.message)
        }
        let missing = ["Z_PRIMARYKEY", "Z_METADATA"].filter { schema.table($0) == nil }
        guard missing.isEmpty else { throw .notCoreData(path: path, missing: missing) }
        let metadata = try StoreMetadata(reading: connection, path: path)
        let records = try readRecords(connection: connection, path: path)
        var anomalies: [String] = []
        let chosen: (ManagedObjectModel, ModelOrigin)
        if let model {
            chosen = (model, origin ?? .given)
        } else {
            chosen = try ModelLocator.model(forStoreAt: path, connection: connection, schema: schema, records: records, metadata: metadata)
        }
        let numbering = EntityNumbering(model: chosen.0, records: records, metadata: metadata, schema: schema)
        let numbers = numbering.numbers
        anomalies += numbering.notes
        var differences = numbering.differences
        var resolver = LayoutResolver(model: chosen.0, numbers: numbers, schema: schema, storeNames: numbering.storeNames)
        let mappings = resolver.resolve()
        differences += resolver.differences
        guard differences.isEmpty else { throw .modelMismatch(path: path, differences: differences) }
        for mapping in mappings.values where mapping.entity.parent == nil {
            guard let record = records[mapping.number],
                case .integer(let top)? = try? connection.scalar("SELECT MAX(Z_PK) FROM \(mapping.table)")
            else { continue }
            if record.max < top {
                anomalies.append("entity \(mapping.name): Z_MAX is \(record.max) but the largest Z_PK is \(top); new keys will start above \(top)")
            }
        }
        return Opened(schema: schema, metadata: metadata, records: records, model: chosen.0, origin: chosen.1, mappings: mappings, anomalies: anomalies)
    }

    private static func readRecords(connection: Connection, path: String) throws(StoreError) -> [Int: EntityRecord] {
        do {
            var records: [Int: EntityRecord] = [:]
            for row in try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY") {
                guard let number = row[0].integer, case .text(let name) = row[1] else {
                    throw StoreError.malformedStore(path: path, reason: "a Z_PRIMARYKEY row has no entity number or name")
                }
                records[Int(number)] = EntityRecord(number: Int(number), name: name, superNumber: Int(row[2].integer ?? 0), max: row[3].integer ?? 0)
            }
            return records
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw .malformedStore(path: path, reason: "Z_PRIMARYKEY cannot be read: \(error.message)")
        } catch {
            throw .malformedStore(path: path, reason: "\(error)")
        }
    }

    /// The `Z_CONTENT` values of `Z_MODELCACHE` (normally one blob), for the model locator,
    /// which decodes them; the SQL stays here with the rest of the store's SQL.
    static func modelCacheContents(connection: Connection) throws(SQLiteError) -> [SQLiteValue] {
        try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").compactMap(\.first)
    }

    /// Stand-ins for the SQL functions Core Data's derived-attribute triggers call, so that
    /// writes to tables with such triggers do not fail with "no such function".
    private func registerTriggerFunctions() throws(StoreError) {
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            do {
                try connection.registerFunction(name, argumentCount: -1) { _ in .null }
            } catch {
                throw .sqlite(error)
            }
        }
    }

    // MARK: - Creating

    /// Creates a new, empty store in Core Data's layout for a model, and opens it for writing.
    public static func create(at path: String, model: ManagedObjectModel) throws(StoreError) -> PersistentStore {
        guard !FileManager.default.fileExists(atPath: path) else { throw .alreadyExists(path: path) }
        var numbers: [String: Int] = [:]
        for (i, entity) in model.entitiesInNumberingOrder.enumerated() { numbers[entity.name] = i + 1 }
        var resolver = LayoutResolver(model: model, numbers: numbers, schema: nil)
        let mappings = resolver.resolve()
        let metadata = StoreMetadata(newStoreFor: model)
        do {
            let connection = try Connection(path: path, mode: .create)
            try connection.execute("PRAGMA page_size = 4096; PRAGMA auto_vacuum = 2; PRAGMA journal_mode = WAL")
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
        return try PersistentStore(path: path, model: model, readOnly: false)
    }

    // MARK: - Entities

    /// The mapping of an entity, by name.
    public func mapping(for entity: String) throws(StoreError) -> EntityMapping {
        guard let mapping = mappings[entity] else { throw .unknownEntity(entity) }
        return mapping
    }

    /// The mapping of an entity, by its number.
    public func mapping(number: Int) -> EntityMapping? { mappingsByNumber[number] }

    /// All entity mappings in entity-number order.
    public var allMappings: [EntityMapping] { mappings.values.sorted { $0.number < $1.number } }

    /// The mapping of an entity and of each of its descendants.
    public func family(of mapping: EntityMapping) -> [EntityMapping] {
        mapping.numbersWithDescendants.compactMap { mappingsByNumber[$0] }
    }

    /// The number of stored objects of exactly this entity (sub-entities not included),
    /// or of the entity and its sub-entities.
    public func count(of mapping: EntityMapping, includingSubentities: Bool = false) throws(StoreError) -> Int {
        let numbers = includingSubentities ? mapping.numbersWithDescendants : [mapping.number]
        let filter = includingSubentities && mapping.ownsWholeTable ? "" : " WHERE Z_ENT IN (\(placeholders(numbers.count)))"
        do {
            let value = try connection.scalar("SELECT COUNT(*) FROM \(mapping.table)\(filter)", filter.isEmpty ? [] : numbers.map { .integer(Int64($0)) })
            return Int(value?.integer ?? 0)
        } catch {
            throw .sqlite(error)
        }
    }

    func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension SQLiteValue {
    /// The value as an integer, when it is one (or a whole real, or integer text).
    var integer: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v) where v.rounded() == v: Int64(v)
        case .text(let s): Int64(s)
        default: nil
        }
    }
}
