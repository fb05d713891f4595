/// One object a save found changed or deleted in the store since its context read it, as
/// an error reports it: the versions on each side and, for every attribute and to-one
/// relationship whose values differ, the value the context holds and the stored one.
///
/// A save that meets conflicts its ``MergePolicy`` does not resolve throws them all in one
/// ``StoreError/optimisticLockingFailure(_:)`` (133020) and writes nothing; the context keeps
/// its changes. ``ManagedObjectContext/reload(_:)`` takes the stored values instead, and a
/// save with ``MergePolicy/overwrite`` keeps this context's.
///
/// Core Data reports a conflict as one `NSMergeConflict`, object included. GraphStore's
/// policy gets a ``MergeConflict`` (the object, its snapshots and this); an error carries
/// this part alone, which is `Sendable`: it names the object by its ``ObjectID``, as
/// GraphStore's errors do wherever Core Data's hold an object.
///
/// ```swift
/// do {
///     try context.save()
/// } catch StoreError.optimisticLockingFailure(let conflicts) {
///     conflicts[0].description
///     // Book/p1 was changed by someone else since it was read (version 1, now version 2)
///     //   price: yours 5, stored 99
/// }
/// ```
public struct SaveConflict: Sendable, Hashable, CustomStringConvertible {
    /// The object in conflict.
    public var objectID: ObjectID
    /// The version (`Z_OPT`) the context read, which the save expected to find.
    public var expectedVersion: Int64
    /// The version in the store now; nil when the row was deleted.
    public var storedVersion: Int64?
    /// Whether the context was deleting the object (rather than saving changes to it).
    public var isDeletion: Bool
    /// The attributes and to-ones whose values differ, in model order (empty when the row
    /// is gone, or when only the version moved).
    public var differences: [Difference]

    /// One attribute or to-one relationship on both sides of a conflict.
    public struct Difference: Sendable, Hashable, CustomStringConvertible {
        /// The attribute or relationship name.
        public var key: String
        /// The value the context holds (and would save).
        public var yours: FetchedValue?
        /// The value in the store.
        public var stored: FetchedValue?

        /// Creates a difference.
        public init(key: String, yours: FetchedValue?, stored: FetchedValue?) {
            self.key = key
            self.yours = yours
            self.stored = stored
        }

        /// `price: yours 5, stored 99`.
        public var description: String { "\(key): yours \(Self.text(yours)), stored \(Self.text(stored))" }

        /// A value as the message shows it: text quoted, nothing as nil.
        static func text(_ value: FetchedValue?) -> String {
            switch value {
            case nil: "nil"
            case .attribute(let attribute): attribute.quotedInMessages
            case .objectID(let id): id.description
            }
        }
    }

    /// Creates a conflict.
    public init(objectID: ObjectID, expectedVersion: Int64, storedVersion: Int64?, isDeletion: Bool = false, differences: [Difference]) {
        self.objectID = objectID
        self.expectedVersion = expectedVersion
        self.storedVersion = storedVersion
        self.isDeletion = isDeletion
        self.differences = differences
    }

    /// Whether someone else deleted the object's row.
    public var rowIsGone: Bool { storedVersion == nil }

    /// The sentence: who did what since the object was read, and both versions.
    public var summary: String {
        let subject = isDeletion ? "\(objectID), which this context deletes," : "\(objectID)"
        guard let storedVersion else { return "\(subject) was deleted by someone else since it was read (version \(expectedVersion))" }
        return "\(subject) was changed by someone else since it was read (version \(expectedVersion), now version \(storedVersion))"
    }

    /// The summary, then one indented line per difference.
    public var description: String {
        ([summary] + differences.map { "  \($0)" }).joined(separator: "\n")
    }
}
