/// Why a store could not be opened, created, read or written.
///
/// Each case names the file, entity, column or value at fault and says why, so the
/// message can be shown to a user as it is.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(path: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String, reason: String)
    /// The path names a FIFO, a device, a directory or a socket (`kind` says which, with
    /// its article: "a FIFO"), checked after symbolic links are followed and before SQLite
    /// opens it (opening a FIFO would wait for a writer).
    case notARegularFile(path: String, kind: String)
    /// The file, or a folder on its path, may not be read (or, `forWriting`, written) by
    /// this user.
    case permissionDenied(path: String, forWriting: Bool)
    /// Another process holds a lock this open cannot share: it is writing the store, or
    /// copying its log back into it. `holder` is that process's ID when the system says.
    case locked(path: String, holder: Int32?)
    /// A migration holds GraphStore's writer lock on the store (it is putting a new file in
    /// the store's place) and did not finish within the wait; `holder` is its process ID
    /// when the system says.
    case beingMigrated(path: String, holder: Int32?)
    /// The path names another file than the one the store opened (a migration or a copy
    /// was put in its place, or it was removed): nothing is written, since it would go to
    /// the old file.
    case replaced(path: String)
    /// No space was left in `directory` (where a private copy of a store and its log is
    /// made to read the log without writing beside the store).
    case diskFull(path: String, directory: String)
    /// The file is shorter than its header says: it was cut off.
    case truncated(path: String, expectedSize: Int, actualSize: Int)
    /// SQLite finds the database damaged; `finding` is `PRAGMA quick_check`'s first line.
    case damaged(path: String, finding: String)
    /// A file operation failed for another reason (`operation` says what was being done,
    /// `reason` is the system's message).
    case fileSystemError(path: String, operation: String, reason: String)
    /// The file is an SQLite database but not in Core Data's layout.
    case notCoreData(path: String, missing: [String])
    /// The store cannot be created because a file is already there.
    case alreadyExists(path: String)
    /// The store's bookkeeping tables hold something unreadable.
    case malformedStore(path: String, reason: String)
    /// A number in the store's bookkeeping is not a whole number that fits 64 bits (a
    /// real beyond `Int64`, a fraction, text): `row` says which row ("Z_ENT 3").
    case malformedInteger(path: String, table: String, row: String, column: String, found: String)
    /// `Z_PRIMARYKEY.Z_SUPER` makes entities inherit from each other in a cycle; the names
    /// go round it, the first repeated at the end.
    case inheritanceCycle(path: String, entities: [String])
    /// The model and the store disagree; each line says where and how.
    case modelMismatch(path: String, differences: [String])
    /// The store was opened read-only and a write was asked for.
    case readOnly(path: String)
    /// A stored value cannot be read as its attribute's type: `found` names its storage
    /// class and value (`text "abc"`), `expected` the attribute's type (`Date`).
    case malformedValue(entity: String, primaryKey: Int64, key: String, column: String, found: String, expected: String)
    /// An attribute's value is kept outside the database, in `file` of the store's support
    /// folder, and the file is not there (reported when the value is read, never for the
    /// whole fetch).
    case externalDataMissing(entity: String, primaryKey: Int64, key: String, file: String)
    /// An attribute's value is kept outside the database, in `file` of the store's support
    /// folder, and what is there is not read: `problem` says why (a symbolic link, a FIFO,
    /// a device or a directory, too large, refused by the system).
    case externalDataUnreadable(entity: String, primaryKey: Int64, key: String, file: String, problem: ExternalDataProblem)
    /// A value of the wrong type was given for an attribute.
    case typeMismatch(entity: String, key: String, expected: AttributeType, found: String)
    /// The entity is not in the model.
    case unknownEntity(String)
    /// The key is neither an attribute nor a relationship of the entity.
    case unknownKey(entity: String, key: String)
    /// An object was asked for that does not exist in the store.
    case objectNotFound(String)
    /// An abstract entity cannot have instances.
    case abstractEntity(String)
    /// Rows changed or deleted in the store since they were read (Core Data's 133020): one
    /// ``SaveConflict`` per object, each with both versions and the values that differ.
    case optimisticLockingFailure([SaveConflict])
    /// An object from another context or store was used.
    case foreignObject(String)
    /// A merge policy was handed what it cannot resolve (something that is not a conflict,
    /// or a conflict whose context has no save under way): what, and why.
    case unresolvableConflict(String)
    /// A new object was asked to take a primary key (an import of `export --ids` files) that
    /// is not free: `reason` says why.
    case primaryKeyTaken(entity: String, primaryKey: Int64, reason: String)
    /// SQLite failed underneath.
    case sqlite(SQLiteError)

    /// Core Data's error code for this failure, where one exists.
    public var code: Int {
        switch self {
        case .fileNotFound, .notADatabase, .notARegularFile, .truncated, .damaged, .fileSystemError, .notCoreData,
            .malformedStore, .malformedInteger, .inheritanceCycle:
            134080
        // Foundation's NSFileReadNoPermissionError and NSFileWriteNoPermissionError.
        case .permissionDenied(_, let forWriting): forWriting ? 513 : 257
        // NSPersistentStoreTimeoutError: the store could not be had within the wait.
        case .locked, .beingMigrated: 134090
        // NSPersistentStoreOperationError.
        case .replaced: 134070
        // Foundation's NSFileWriteOutOfSpaceError.
        case .diskFull: 640
        case .modelMismatch: 134100
        case .optimisticLockingFailure: 133020
        case .objectNotFound: 133000
        case .foreignObject: 133010
        case .sqlite: 134180
        case .readOnly, .alreadyExists, .primaryKeyTaken: 134030
        case .malformedValue, .externalDataMissing, .externalDataUnreadable, .typeMismatch, .unknownEntity, .unknownKey, .abstractEntity,
            .unresolvableConflict:
            134060
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(path): no such file"
        case .notADatabase(let path, let reason):
            "\(path): not an SQLite database (\(reason))"
        case .notARegularFile(let path, let kind):
            "\(path) is \(kind), not a store file"
        case .permissionDenied(let path, false):
            "\(path): permission denied: this user may not read it"
        case .permissionDenied(let path, true):
            "\(path): permission denied: this user may not write it or its folder (it can be opened read-only)"
        case .locked(let path, let holder?):
            "\(path): locked by another process (pid \(holder)), which is writing to it; try again when it has finished"
        case .locked(let path, nil):
            "\(path): locked by another process, which is writing to it; try again when it has finished"
        case .beingMigrated(let path, let holder):
            "\(path): being migrated by another process\(holder.map { " (pid \($0))" } ?? ""); open it again when the migration has finished"
        case .replaced(let path):
            "\(path): the file was replaced (by a migration or a copy) or removed since the store was opened; nothing was written to the old file: open the store again"
        case .diskFull(let path, let directory):
            "\(path): disk full: no space left in \(directory) for the private copy that reads its log"
        case .truncated(let path, let expected, let actual):
            "\(path): truncated: the header promises \(expected) bytes, the file has \(actual)"
        case .damaged(let path, let finding):
            "\(path): the database is damaged: \(finding)"
        case .fileSystemError(let path, let operation, let reason):
            "\(path): cannot \(operation): \(reason)"
        case .notCoreData(let path, let missing):
            "\(path): an SQLite database, but not a Core Data store: no \(missing.joined(separator: " or ")) table"
        case .alreadyExists(let path):
            "\(path): a file already exists there"
        case .malformedStore(let path, let reason):
            "\(path): damaged Core Data bookkeeping: \(reason)"
        case .malformedInteger(let path, let table, let row, let column, let found):
            "\(path): damaged Core Data bookkeeping: \(table) row \(row): \(column) holds \(found), which is not a whole number of 64 bits"
        case .inheritanceCycle(let path, let entities):
            "\(path): damaged Core Data bookkeeping: Z_PRIMARYKEY.Z_SUPER makes entities inherit from each other in a cycle: "
                + entities.joined(separator: " → ")
        case .modelMismatch(let path, let differences):
            "\(path): the model does not match the store:\n" + differences.map { "  - \($0)" }.joined(separator: "\n")
        case .readOnly(let path):
            "\(path): opened read-only"
        case .malformedValue(let entity, let pk, let key, let column, let found, let expected):
            "\(entity)/p\(pk): \(key) (column \(column)) holds \(found), which cannot be read as \(expected)"
        case .externalDataMissing(let entity, let pk, let key, let file):
            "\(entity)/p\(pk): \(key) is kept in external data file \(file), which is missing"
        case .externalDataUnreadable(let entity, let pk, let key, let file, let problem):
            "\(entity)/p\(pk): \(key) is kept in external data file \(file), which \(problem)"
        case .typeMismatch(let entity, let key, let expected, let found):
            "\(entity).\(key) is \(expected.xcodeName); \(found) does not fit"
        case .unknownEntity(let name):
            "no entity named \(name)"
        case .unknownKey(let entity, let key):
            "entity \(entity) has no attribute or relationship named \(key)"
        case .objectNotFound(let id):
            "no object \(id) in the store"
        case .abstractEntity(let name):
            "entity \(name) is abstract and cannot have instances"
        case .optimisticLockingFailure(let conflicts) where conflicts.count == 1:
            conflicts[0].description
        case .optimisticLockingFailure(let conflicts):
            "\(conflicts.count) objects were changed or deleted by someone else since they were read:\n"
                + conflicts.map { $0.description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n") }.joined(separator: "\n")
        case .foreignObject(let id):
            "object \(id) belongs to another context"
        case .unresolvableConflict(let reason):
            "a merge policy cannot resolve this: \(reason)"
        case .primaryKeyTaken(let entity, let key, let reason):
            "\(entity)/p\(key) cannot be given that object ID: \(reason)"
        case .sqlite(let error):
            error.description
        }
    }
}
