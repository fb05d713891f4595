/// What a save does when an object it writes was changed or deleted in the store since its
/// context read it (the row's `Z_OPT` is not the version the context read).
///
/// ```swift
/// context.mergePolicy = .overwrite       // every save from now on
/// try context.save(mergePolicy: .overwrite)   // or this one only
/// ```
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
}
