/// Objects a save found sharing the values of a uniqueness constraint, as a ``MergePolicy``
/// is handed them: Core Data's `NSConstraintConflict`.
///
/// One conflict per constraint and shared values; a constraint declared on an entity holds
/// among its sub-entities too, and their objects come in one conflict, as in Core Data.
/// Its two shapes, as Core Data documents them:
///
/// - **With a stored row**: the row's object is ``databaseObject`` (with ``databaseSnapshot``),
///   and ``conflictingObjects`` are the objects being saved that took its values (usually
///   one).
/// - **Within the context**: no stored row holds the values; ``databaseObject`` is nil and
///   ``conflictingObjects`` are the objects being saved that share them.
///
/// ```swift
/// override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
///     for conflict in list {
///         print(conflict.constraint, conflict.constraintValues, conflict.conflictingObjects.map(\.objectID))
///     }
///     try super.resolve(constraintConflicts: list)    // collapses each into one object
/// }
/// ```
///
/// It holds objects, so it stays in their context: it is not `Sendable`. A save that fails
/// on it throws ``ConstraintConflictError`` (133021) with its ``ValidationError``s.
public struct ConstraintConflict: CustomStringConvertible {
    /// The constraint's properties, as declared.
    public let constraint: [String]
    /// The values the conflicting objects share, by property, as they were when the
    /// conflict was found (they may differ once something resolved it).
    public let constraintValues: [String: AttributeValue]
    /// The object whose stored row holds the values; nil for a conflict within the context.
    public let databaseObject: ManagedObject?
    /// That row's values as stored, read inside the save's transaction.
    public let databaseSnapshot: ObjectSnapshot?
    /// The objects being saved that hold the values, in the order the context lists them
    /// (inserted ones in insertion order, then updated ones).
    public let conflictingObjects: [ManagedObject]
    /// Each conflicting object's values as this context read them; nil for an inserted
    /// object, which has none stored (Core Data's `NSNull`).
    public let conflictingSnapshots: [ObjectSnapshot?]
    /// Every stored object holding the values, the database object first (a store without
    /// a UNIQUE index may hold several).
    let storedIDs: [ObjectID]

    /// A conflict made by hand (Core Data's `init(constraint:database:databaseSnapshot:conflicting:conflictingSnapshots:)`).
    /// The shared values are read from the first conflicting object now.
    public init(
        constraint: [String], database databaseObject: ManagedObject?, databaseSnapshot: ObjectSnapshot?,
        conflicting conflictingObjects: [ManagedObject], conflictingSnapshots: [ObjectSnapshot?]
    ) {
        var values: [String: AttributeValue] = [:]
        if let first = conflictingObjects.first {
            for key in constraint { values[key] = (try? first.value(forKey: key)) ?? nil }
        }
        self.init(
            constraint: constraint, constraintValues: values, databaseObject: databaseObject, databaseSnapshot: databaseSnapshot,
            conflictingObjects: conflictingObjects, conflictingSnapshots: conflictingSnapshots, storedIDs: databaseObject.map { [$0.objectID] } ?? [])
    }

    init(
        constraint: [String], constraintValues: [String: AttributeValue], databaseObject: ManagedObject?, databaseSnapshot: ObjectSnapshot?,
        conflictingObjects: [ManagedObject], conflictingSnapshots: [ObjectSnapshot?], storedIDs: [ObjectID]
    ) {
        self.constraint = constraint
        self.constraintValues = constraintValues
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots
        self.storedIDs = storedIDs
    }

    /// One failure per conflicting object, naming the others that share its values (what
    /// ``ConstraintConflictError`` carries: `Book/t2: isbn "978-1" is not unique: Book/p1
    /// has the same value (uniqueness constraint on isbn)`).
    public var validationErrors: [ValidationError] {
        let values = constraint.compactMap { constraintValues[$0] }
        let value: AttributeValue? = values.count == 1 ? values[0] : .string(values.map(\.quotedInMessages).joined(separator: ", "))
        let key = constraint.joined(separator: ",")
        return conflictingObjects.map { member in
            let related = conflictingObjects.filter { $0 !== member }.map(\.objectID) + storedIDs
            return ValidationError(objectID: member.objectID, key: key, value: value, rule: .unique(constraint), relatedObjects: related)
        }
    }

    /// `isbn "978-1": Book/t2, Book/p1 (stored)`.
    public var description: String {
        let values = constraint.map { "\($0) \(constraintValues[$0]?.quotedInMessages ?? "nil")" }.joined(separator: ", ")
        let stored = storedIDs.map { "\($0) (stored)" }
        return "\(values): " + (conflictingObjects.map(\.objectID.description) + stored).joined(separator: ", ")
    }
}
