/// The five ways a ``MergePolicy`` settles conflicts: Core Data's `NSMergePolicyType`, with
/// its case names and raw values.
///
/// ```swift
/// let policy = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
/// policy == .mergeByPropertyStoreTrump    // true: the shared instance of that type
/// ```
///
/// What each does, to a changed object and to objects that share a uniqueness
/// constraint's values, is told by the shared instances of ``MergePolicy``.
public enum MergePolicyType: UInt, Sendable, Hashable, CaseIterable {
    /// ``MergePolicy/error``: the save fails and names every conflict.
    case errorMergePolicyType = 0
    /// ``MergePolicy/mergeByPropertyStoreTrump``: property by property, the store's side wins.
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// ``MergePolicy/mergeByPropertyObjectTrump``: property by property, this context's side wins.
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// ``MergePolicy/overwrite``: this context's objects are written whole.
    case overwriteMergePolicyType = 3
    /// ``MergePolicy/rollback``: this context's conflicting changes are dropped.
    case rollbackMergePolicyType = 4
}
