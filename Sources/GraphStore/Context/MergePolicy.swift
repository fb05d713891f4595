/// What a save does when what it writes conflicts with the store: Core Data's
/// `NSMergePolicy`, with its five shared policies and their semantics, and a class to
/// subclass for an app's own rules.
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump   // every save from now on
/// try context.save(mergePolicy: .overwrite)           // or this one only
/// ```
///
/// A save meets two kinds of conflict, and hands each list to the policy inside its
/// transaction, before anything is committed:
///
/// - **Optimistic locking** (``MergeConflict``): an object it changes or deletes was changed
///   or deleted in the store since this context read it (the row's `Z_OPT` is not the
///   version read).
/// - **Uniqueness constraints** (``ConstraintConflict``): objects it saves share the values
///   of a constraint with each other or with a stored row.
///
/// ``resolve(mergeConflicts:)`` hands the first to ``resolve(optimisticLockingConflicts:)``,
/// then the second to ``resolve(constraintConflicts:)``, as Core Data's does. The policy may
/// change any object of the context there: delete a duplicate, repoint relationships,
/// refresh an object, set a value. Then the save tries again: the `willSave` hooks and
/// validation run once more, the constraints and versions are checked again, and the save
/// goes on while each try leaves fewer conflicts; the conflicts left when a try resolves
/// none fail the save (133020 for a version, 133021 for a constraint). All of it is one
/// transaction: a policy that throws, or a save that fails after it, writes nothing and
/// leaves the context as it was before the save.
///
/// ## Subclassing
///
/// Start from the built-in type closest to what you want and change what `super` did, as
/// Core Data advises (merging to-many relationships by hand is hard to get right):
///
/// ```swift
/// final class CountingPolicy: MergePolicy {
///     init() { super.init(merge: .mergeByPropertyStoreTrumpMergePolicyType) }
///
///     override func resolve(constraintConflicts list: [ConstraintConflict]) throws {
///         try super.resolve(constraintConflicts: list)       // one object per constraint value
///         for case let survivor? in list.map(\.databaseObject) {
///             try survivor.set("count", Int64(try survivor.objects(forKey: "items").count))
///         }
///     }
/// }
/// context.mergePolicy = CountingPolicy()
/// ```
///
/// A policy works on objects, so it belongs where its context does: it is not `Sendable`,
/// and a subclass may keep state of its own. The shared policies are therefore no global
/// instances: each read of ``error``, ``overwrite``, … makes a new policy of that type (one
/// small object, as Core Data's class properties hand out one), and policies of the base
/// class are equal when their types are, so `context.mergePolicy == .error` says what it
/// reads as.
///
/// ## Optimistic-locking conflicts
///
/// A "property" is an attribute or a to-one relationship: to-manys are stored on the other
/// side (each member's to-one) or in a join table. A many-to-many relationship this context
/// changed is written as this context holds it under every type but rollback and error:
/// GraphStore does not merge its members one by one. What each shared policy does is told
/// with it below.
///
/// ## Uniqueness-constraint conflicts
///
/// Core Data documents the shape of a constraint conflict (see ``ConstraintConflict``) but
/// not what each policy does to one. GraphStore does what Core Data is commonly reported to
/// do, and chooses where the reports say nothing; both are marked here and in
/// `docs/from-core-data.md`. Every type but error **collapses a conflict into one object**,
/// the survivor:
///
/// - Between objects being saved and a stored row, the survivor is the row's object
///   (``ConstraintConflict/databaseObject``): it keeps its row and its object ID, before and
///   after the save (reported behaviour).
/// - Between objects being saved only, the survivor is the first of them already stored,
///   else the first inserted, which gets its permanent ID at the save as any insert does
///   (GraphStore's choice).
/// - Each other conflicting object goes: the members of its to-many relationships move to
///   the survivor (reported behaviour: the union of both sides' to-manys), its to-ones are
///   let go, and it is deleted (an inserted one is never written). A relationship the
///   survivor's entity lacks (objects of two sub-entities of the constraint's entity) is
///   emptied instead.
///
/// Which values the survivor ends with is each type's, told with it below. Error throws
/// ``ConstraintConflictError`` (133021) instead.
open class MergePolicy: Hashable, CustomStringConvertible {
    /// The built-in behaviour the policy starts from.
    public let mergeType: MergePolicyType

    /// A policy of `type` (Core Data's `init(merge:)`). A subclass passes the type closest
    /// to what it wants and changes what it does in the `resolve` methods.
    public init(merge type: MergePolicyType) {
        mergeType = type
    }

    /// The default policy. An optimistic-locking conflict fails the save with
    /// ``StoreError/optimisticLockingFailure(_:)`` (133020) naming every conflict, and a
    /// uniqueness conflict with ``ConstraintConflictError`` (133021); nothing is written.
    /// Core Data's `NSErrorMergePolicy`.
    public static var error: MergePolicy { MergePolicy(merge: .errorMergePolicyType) }

    /// This context's version wins. A conflicting object is written whole (every attribute
    /// and to-one, changed or not) over the stored row, and an object this context deletes
    /// is deleted whatever its stored version. A row someone else deleted stays a conflict:
    /// there is nothing left to overwrite (``ManagedObjectContext/reload(_:)`` drops the
    /// object). Core Data's `NSOverwriteMergePolicy`.
    ///
    /// On a uniqueness conflict, the survivor takes every attribute and to-one of each
    /// object that goes, changed or not, in order (GraphStore's choice: Core Data documents
    /// none; for an inserted object this is what object trump does).
    public static var overwrite: MergePolicy { MergePolicy(merge: .overwriteMergePolicyType) }

    /// The store's version wins. This context's unsaved changes to a conflicting object
    /// (an update or a delete) are dropped and the object shows the stored values after the
    /// save, which writes the other changes. An object whose row is gone leaves the context.
    /// Core Data's `NSRollbackMergePolicy`.
    ///
    /// On a uniqueness conflict, a conflicting object already stored has its changes
    /// dropped (it is read again and keeps its row), and the inserted ones collapse into
    /// the stored row's object, else into the first of them; the survivor keeps its values
    /// (GraphStore's choice: Core Data documents none).
    public static var rollback: MergePolicy { MergePolicy(merge: .rollbackMergePolicyType) }

    /// Property by property, this context's changes win. A conflicting object keeps the
    /// attributes and to-ones this context changed, takes the stored values of the others,
    /// and is written so. A delete is made whatever the stored version. Core Data's
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: an app's edit of `price` and another
    /// context's saved edit of `title` are both kept.
    ///
    /// On a uniqueness conflict, the survivor takes the values of each object that goes:
    /// every attribute and to-one of an inserted one, none included (reported behaviour: a
    /// bare insert blanks the stored values it did not set), the changed ones of a stored
    /// one; in order, so the last inserted wins among objects inserted together
    /// (GraphStore's choice).
    public static var mergeByPropertyObjectTrump: MergePolicy { MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

    /// Property by property, the store's changes win. A conflicting object takes the stored
    /// value of every attribute and to-one changed in the store since this context read it,
    /// and keeps this context's changes to the others. A delete is made whatever the stored
    /// version. Core Data's `NSMergeByPropertyStoreTrumpMergePolicy`.
    ///
    /// On a uniqueness conflict, the survivor keeps its own values; the objects that go
    /// bring only their to-many members (reported behaviour, Moody's dedupe relies on it).
    public static var mergeByPropertyStoreTrump: MergePolicy { MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType) }

    /// Resolves a save's conflicts (Core Data's `resolve(mergeConflicts:)`): each element is
    /// a ``MergeConflict`` or a ``ConstraintConflict``; the first are handed to
    /// ``resolve(optimisticLockingConflicts:)``, then the second to
    /// ``resolve(constraintConflicts:)``. Anything else is
    /// ``StoreError/unresolvableConflict(_:)``.
    open func resolve(mergeConflicts list: [Any]) throws {
        var optimistic: [MergeConflict] = []
        var constraints: [ConstraintConflict] = []
        for item in list {
            switch item {
            case let conflict as MergeConflict: optimistic.append(conflict)
            case let conflict as ConstraintConflict: constraints.append(conflict)
            default: throw StoreError.unresolvableConflict("a \(type(of: item)) is neither a MergeConflict nor a ConstraintConflict")
            }
        }
        try resolve(optimisticLockingConflicts: optimistic)
        try resolve(constraintConflicts: constraints)
    }

    /// Resolves optimistic-locking conflicts as ``mergeType`` says (see the shared
    /// policies); the error type throws ``StoreError/optimisticLockingFailure(_:)``.
    /// Called before ``resolve(constraintConflicts:)``.
    open func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        guard !list.isEmpty else { return }
        guard mergeType != .errorMergePolicyType else { throw StoreError.optimisticLockingFailure(list.map(\.saveConflict)) }
        for conflict in list { try conflict.resolve(by: mergeType) }
    }

    /// Resolves uniqueness-constraint conflicts as ``mergeType`` says (see the type's
    /// description); the error type throws ``ConstraintConflictError`` (133021), one entry
    /// per conflicting object, as a save without a policy does.
    open func resolve(constraintConflicts list: [ConstraintConflict]) throws {
        guard !list.isEmpty else { return }
        guard mergeType != .errorMergePolicyType else { throw ConstraintConflictError(list.flatMap(\.validationErrors)) }
        for conflict in list { try conflict.resolve(by: mergeType) }
    }

    /// `mergeByPropertyObjectTrump`; a subclass's adds its class (`MoodyMergePolicy(mergeByPropertyStoreTrump)`).
    open var description: String {
        let name = String(describing: mergeType).replacingOccurrences(of: "MergePolicyType", with: "")
        return Swift.type(of: self) == MergePolicy.self ? name : "\(Swift.type(of: self))(\(name))"
    }

    /// Two plain policies are equal when their types are; a subclass's instance only to itself.
    public static func == (lhs: MergePolicy, rhs: MergePolicy) -> Bool {
        lhs === rhs || (lhs.isPlain && rhs.isPlain && lhs.mergeType == rhs.mergeType)
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        if isPlain { hasher.combine(mergeType) } else { hasher.combine(ObjectIdentifier(self)) }
    }

    /// Whether this is a policy of the base class, whose behaviour is its type alone.
    private var isPlain: Bool { Swift.type(of: self) == MergePolicy.self }
}
