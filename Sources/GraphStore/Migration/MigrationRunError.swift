/// Why a migration did not run to the end. Whatever the reason, the store is left as it
/// was: the new file is written beside it and put in its place only once complete and
/// checked.
public enum MigrationRunError: Error, Sendable, CustomStringConvertible {
    /// The plan could not be made (no version fits, an unknown target, …).
    case plan(MigrationError)
    /// Core Data's rules refuse a step.
    case refused([MigrationRefusal])
    /// A relationship changes in a way GraphStore does not carry yet.
    case unsupported(step: String, entity: String, property: String, reason: String)
    /// The store, or a file written by the migration, failed.
    case store(StoreError)
    /// The migrated objects do not pass the destination model's validation.
    case validationFailed(store: String, failures: [String])
    /// The migrated store does not hold the objects it should.
    case objectsLost(entity: String, expected: Int, found: Int)
    /// Putting the new file in place failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// A backup is to be kept and `backup` (or its support folder, `supportFolder`) is
    /// already there, from an earlier migration: GraphStore does not overwrite a backup.
    case backupExists(backup: String, supportFolder: String?)
    /// Another program has the store open for writing (a GraphStore session, or any SQLite
    /// connection: `holder` is its process ID when the system says): the migration would
    /// put a new file in its place, and the other program would go on writing the old one.
    case storeInUse(path: String, holder: Int32?)
    /// A mapping model names a migration policy class that is not registered
    /// (``MigrationPolicies``); nothing was written.
    case unknownPolicy(mappingModel: String, mapping: String, className: String, registered: [String])
    /// Running an entity mapping failed: a value expression, a policy's hook, or a value
    /// that does not fit its destination property. `object` is the source (or destination)
    /// object being migrated, when there is one.
    case mappingFailed(mappingModel: String, mapping: String, object: String?, reason: String)

    /// Core Data's code: the refusal's own code, 134110 (`NSMigrationError`) otherwise.
    public var code: Int {
        switch self {
        case .plan(let error): error.code
        case .refused(let refusals): refusals.first?.code.rawValue ?? 134110
        case .store(let error): error.code
        default: 134110
        }
    }

    public var description: String {
        switch self {
        case .plan(let error): "\(error)"
        case .refused(let refusals): "refused: " + refusals.map(\.description).joined(separator: "; ")
        case .unsupported(let step, let entity, let property, let reason):
            "\(step): \(entity).\(property) \(reason); GraphStore does not carry this change yet (134110)"
        case .store(let error): "\(error)"
        case .validationFailed(let store, let failures):
            "\(store): the migrated objects fail validation (134110): " + failures.prefix(5).joined(separator: "; ")
                + (failures.count > 5 ? "; and \(failures.count - 5) more" : "")
        case .objectsLost(let entity, let expected, let found):
            "the migrated store holds \(found) \(entity) objects, \(expected) expected (134110)"
        case .fileSystem(let path, let operation, let reason): "\(path): \(operation) failed: \(reason)"
        case .backupExists(let backup, let folder):
            "\(backup) already exists\(folder.map { " (or its support folder \($0))" } ?? ""), from an earlier migration, and "
                + "GraphStore does not overwrite a backup: move it away, or migrate without keeping a backup"
        case .storeInUse(let path, let holder):
            "\(path) is open for writing in another program\(holder.map { " (pid \($0))" } ?? ""), which would go on writing "
                + "the old file once the migrated one took its place; close it and migrate again"
        case .unknownPolicy(let file, let mapping, let className, let registered):
            "\(file): entity mapping \(mapping) names the migration policy \(className), which is not registered ("
                + (registered.isEmpty ? "none is" : "registered: \(registered.joined(separator: ", "))")
                + "); register it with MigrationPolicies, by its name with or without the module (134110)"
        case .mappingFailed(let file, let mapping, let object, let reason):
            "\(file): entity mapping \(mapping)\(object.map { ", \($0)" } ?? ""): \(reason) (134110)"
        }
    }
}
