import Foundation

/// Which destination object a mapping model's run made from which source object, kept on
/// disk so that a migration's memory does not grow with the store (Core Data keeps this
/// table in memory, which is why its manual migrations run out of it on large stores).
///
/// A row is (entity mapping, source entity number and key, destination entity number and
/// key). The file is the run's own scratch file beside the new store; ``remove()`` deletes
/// it when the run ends, succeeded or not.
///
/// ```swift
/// let table = try MigrationAssociations(path: scratch + "-associations")
/// try table.add(mapping: 0, source: (entity: 3, key: 12), destination: (entity: 2, key: 1))
/// try table.destinations(mapping: 0, source: (entity: 3, key: 12))   // [(2, 1)]
/// ```
final class MigrationAssociations {
    /// An object's place: its entity's number (`Z_ENT`) and key (`Z_PK`).
    typealias Place = (entity: Int, key: Int64)

    /// One association as the relationship stage reads it back.
    struct Association {
        var source: Place
        var destination: Place
    }

    let path: String
    private let connection: Connection
    private var pending = 0

    /// Creates the table in a new file at `path` (an old file there is replaced).
    init(path: String) throws(StoreError) {
        self.path = path
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        do {
            connection = try Connection(path: path, mode: .create)
            // Scratch data: a crash loses nothing that matters (the run starts over), so
            // the file is written without a journal or syncing, and held locked by this
            // connection alone (no lock taken and released per statement: the relationship
            // stage reads it once per object).
            try connection.executeScript("""
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                CREATE TABLE association (
                    mapping INTEGER NOT NULL,
                    source_entity INTEGER NOT NULL, source_key INTEGER NOT NULL,
                    destination_entity INTEGER NOT NULL, destination_key INTEGER NOT NULL);
                CREATE INDEX association_source ON association (source_entity, source_key, mapping);
                CREATE INDEX association_destination ON association (destination_entity, destination_key);
                """)
        } catch {
            throw StoreError.fileSystemError(path: path, operation: "create the migration's association table", reason: "\(error)")
        }
    }

    /// Records that `mapping` made `destination` from `source`. Rows are written in
    /// transactions of many rows (call ``flush()`` before reading them back).
    func add(mapping: Int, source: Place, destination: Place) throws(StoreError) {
        try guarded("record an association") { () throws(SQLiteError) in
            if pending == 0 { try connection.execute("BEGIN") }
            let insert = try connection.cachedStatement(
                "INSERT INTO association (mapping, source_entity, source_key, destination_entity, destination_key) VALUES (?, ?, ?, ?, ?)")
            insert.bind(Int64(mapping), at: 1)
            insert.bind(Int64(source.entity), at: 2)
            insert.bind(source.key, at: 3)
            insert.bind(Int64(destination.entity), at: 4)
            insert.bind(destination.key, at: 5)
            try insert.execute()
            pending += 1
            if pending >= 10_000 { try commit() }
        }
    }

    /// Commits the rows added so far.
    func flush() throws(StoreError) {
        try guarded("record associations") { () throws(SQLiteError) in if pending > 0 { try commit() } }
    }

    private func commit() throws(SQLiteError) {
        try connection.execute("COMMIT")
        pending = 0
    }

    /// The destinations made from `source` by `mapping`, or by any mapping when nil, in the
    /// order they were made.
    func destinations(mapping: Int?, source: Place) throws(StoreError) -> [Place] {
        try places(mapping: mapping, of: source, reading: "destination", from: "source")
    }

    /// The sources `destination` was made from, by `mapping`, or by any mapping when nil.
    func sources(mapping: Int?, destination: Place) throws(StoreError) -> [Place] {
        try places(mapping: mapping, of: destination, reading: "source", from: "destination")
    }

    /// The `reading` side of the associations whose `from` side is `place`.
    private func places(mapping: Int?, of place: Place, reading: String, from: String) throws(StoreError) -> [Place] {
        try guarded("read associations") { () throws(SQLiteError) in
            let statement = try connection.cachedStatement(
                "SELECT \(reading)_entity, \(reading)_key FROM association WHERE \(from)_entity = ?1 AND \(from)_key = ?2"
                    + (mapping == nil ? "" : " AND mapping = ?3") + " ORDER BY rowid")
            statement.bind(Int64(place.entity), at: 1)
            statement.bind(place.key, at: 2)
            if let mapping { statement.bind(Int64(mapping), at: 3) }
            defer { statement.reset() }
            var places: [Place] = []
            while try statement.step() { places.append((Int(statement.int64(0)), statement.int64(1))) }
            return places
        }
    }

    /// The number of the last row recorded so far (0 when none is).
    func lastRow() throws(StoreError) -> Int64 {
        try guarded("read associations") { () throws(SQLiteError) in
            let statement = try connection.cachedStatement("SELECT ifnull(max(rowid), 0) FROM association")
            defer { statement.reset() }
            return try statement.step() ? statement.int64(0) : 0
        }
    }

    /// Up to `limit` associations of `mapping` recorded after row `after` and up to row
    /// `through`, with the last row's number to continue from: the relationship stage pages
    /// through the objects a mapping made before it began (not those a policy makes during
    /// it) without holding them all.
    func page(mapping: Int, after: Int64, through: Int64, limit: Int) throws(StoreError) -> (associations: [Association], last: Int64) {
        try guarded("read associations") { () throws(SQLiteError) in
            let statement = try connection.cachedStatement("""
                SELECT rowid, source_entity, source_key, destination_entity, destination_key FROM association
                WHERE mapping = ?1 AND rowid > ?2 AND rowid <= ?4 ORDER BY rowid LIMIT ?3
                """)
            statement.bind(Int64(mapping), at: 1)
            statement.bind(after, at: 2)
            statement.bind(Int64(limit), at: 3)
            statement.bind(through, at: 4)
            defer { statement.reset() }
            var associations: [Association] = []
            var last = after
            while try statement.step() {
                last = statement.int64(0)
                associations.append(Association(
                    source: (Int(statement.int64(1)), statement.int64(2)), destination: (Int(statement.int64(3)), statement.int64(4))))
            }
            return (associations, last)
        }
    }

    /// The number of associations `mapping` made.
    func count(mapping: Int) throws(StoreError) -> Int {
        try guarded("count associations") { () throws(SQLiteError) in
            let statement = try connection.cachedStatement("SELECT count(*) FROM association WHERE mapping = ?1")
            statement.bind(Int64(mapping), at: 1)
            defer { statement.reset() }
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// Deletes the file (the connection, closed when the table goes, keeps reading an
    /// unlinked file until then, as POSIX allows).
    func remove() {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func guarded<T>(_ operation: String, _ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError.fileSystemError(path: path, operation: operation, reason: "\(error)")
        }
    }
}
