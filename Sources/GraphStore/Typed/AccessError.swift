/// What a typed accessor could not do.
///
/// Typed properties (``Attribute``, ``Relationship``) read and write without `try`, as Core
/// Data's do. Where Core Data raises an exception (a fault on an object deleted elsewhere, a
/// value of the wrong class), a typed accessor cannot throw, and GraphStore does not trap:
///
/// - a read that fails returns the property's empty value (nil, 0, false, an empty set);
/// - a write that fails changes nothing;
/// - either way the error is kept by the object's context, in
///   ``ManagedObjectContext/accessErrors``, and the next ``ManagedObjectContext/save()``
///   with changes throws ``AccessFailure`` instead of writing, so that work built on a failed
///   read is never saved silently. ``ManagedObjectContext/rollback()``,
///   ``ManagedObjectContext/reset()`` or ``ManagedObjectContext/clearAccessErrors()`` let
///   go of them.
///
/// An object that belongs to no context (deleted and saved, rolled back, or its context
/// gone) keeps the values it had, and a property it cannot read reads empty, with no error
/// kept: there is no save to protect.
///
/// ```swift
/// let title = book.title                 // nil if the row was deleted by another program
/// if let problem = context.accessErrors.first { print(problem) }   // "Book/p4.title: …"
/// ```
public struct AccessError: Error, CustomStringConvertible {
    /// The object whose property was read or written.
    public let objectID: ObjectID
    /// The property (attribute or relationship name).
    public let key: String
    /// What went wrong underneath (a ``StoreError``, ``RelationshipError``, ``TypedObjectError``…).
    public let underlying: any Error

    public var description: String { "\(objectID).\(key): \(underlying)" }
}

/// What ``ManagedObjectContext/save()`` throws while typed accessors of the context have
/// failed since the last save, rollback or reset (see ``AccessError``). Nothing is written.
///
/// ```swift
/// do { try context.save() } catch let failure as AccessFailure {
///     print(failure)                     // what failed; then rollback() or clearAccessErrors()
/// }
/// ```
public struct AccessFailure: Error, CustomStringConvertible {
    /// The failures kept (the first ``AccessErrorLog/limit``).
    public let errors: [AccessError]
    /// How many failures there were, counting those not kept.
    public let count: Int

    public var description: String {
        let shown = errors.prefix(5).map { "  \($0)" }.joined(separator: "\n")
        let more = count > 5 ? "\n  … and \(count - 5) more" : ""
        return """
            \(count) typed \(count == 1 ? "access" : "accesses") failed since the last save; nothing was saved \
            (rollback(), reset() or clearAccessErrors() to go on):
            \(shown)\(more)
            """
    }
}

/// The failures a context keeps: the first ``limit`` of them and a count, so that a loop
/// reading a thousand deleted objects does not grow memory without bound.
struct AccessErrorLog {
    static let limit = 100
    private(set) var errors: [AccessError] = []
    private(set) var count = 0

    mutating func append(_ error: AccessError) {
        count += 1
        if errors.count < Self.limit { errors.append(error) }
    }

    /// The error a save throws, if any failure is kept.
    var failure: AccessFailure? { count == 0 ? nil : AccessFailure(errors: errors, count: count) }
}
