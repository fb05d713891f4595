/// What a save does when an object it writes was changed or deleted in the store since its
/// context read it (the row's `Z_OPT` is not the version the context read): Core Data's
/// merge policies, with their semantics property by property.
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump   // every save from now on
/// try context.save(mergePolicy: .overwrite)           // or this one only
/// ```
///
/// A "property" is an attribute or a to-one relationship: to-manys are stored on the
/// other side (each member's to-one) or in a join table. A many-to-many relationship this
/// context changed is written as this context holds it under every policy but ``rollback``
/// and ``error``: GraphStore does not merge its members one by one.
public enum MergePolicy: Sendable, Hashable {
    /// The save fails with ``StoreError/optimisticLockingFailure(_:)`` (133020) naming every
    /// conflict, and writes nothing. Core Data's `NSErrorMergePolicy`; the default.
    case error
    /// This context's version wins: a conflicting object is written whole (every attribute
    /// and to-one, changed or not) over the stored row, and an object this context deletes
    /// is deleted whatever its stored version. A row someone else deleted stays a conflict:
    /// there is nothing left to overwrite (``ManagedObjectContext/reload(_:)`` drops the
    /// object). Core Data's `NSOverwriteMergePolicy`.
    case overwrite
    /// The store's version wins: this context's unsaved changes to a conflicting object
    /// (an update or a delete) are dropped and the object shows the stored values after the
    /// save, which writes the other changes. An object whose row is gone leaves the context.
    /// Core Data's `NSRollbackMergePolicy`.
    case rollback
    /// Property by property, this context's changes win: a conflicting object keeps the
    /// attributes and to-ones this context changed, takes the stored values of the others,
    /// and is written so. A delete is made whatever the stored version. Core Data's
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: an app's edit of `price` and another
    /// context's saved edit of `title` are both kept.
    case mergeByPropertyObjectTrump
    /// Property by property, the store's changes win: a conflicting object takes the stored
    /// value of every attribute and to-one changed in the store since this context read it,
    /// and keeps this context's changes to the others. A delete is made whatever the stored
    /// version. Core Data's `NSMergeByPropertyStoreTrumpMergePolicy`.
    case mergeByPropertyStoreTrump
}
