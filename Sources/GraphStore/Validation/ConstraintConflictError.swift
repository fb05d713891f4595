/// A save refused because objects share the values of a uniqueness constraint: Core Data's
/// `NSManagedObjectConstraintMergeError` (133021).
///
/// Each conflict is a ``ValidationError`` with the rule ``ValidationRule/unique(_:)``: the
/// object being saved, the constrained key and value, and in
/// ``ValidationError/relatedObjects`` the objects that already have that value (stored or
/// also being saved).
///
/// ```swift
/// do { try context.save() } catch let conflict as ConstraintConflictError {
///     print(conflict)   // Book/t2: isbn "978-0441013593" is not unique: Book/p1 has the same value (uniqueness constraint on isbn)
/// }
/// ```
public struct ConstraintConflictError: ValidationErrorReporting, Hashable, CustomStringConvertible {
    /// One entry per object in conflict.
    public var conflicts: [ValidationError]

    /// Core Data's code, 133021.
    public var code: ValidationErrorCode { .constraintConflict }

    /// Wraps the conflicts.
    public init(_ conflicts: [ValidationError]) { self.conflicts = conflicts }

    /// The conflicts.
    public var validationErrors: [ValidationError] { conflicts }

    /// One line per conflict (with a heading when there are several).
    public var description: String {
        conflicts.count == 1
            ? conflicts[0].description
            : "\(conflicts.count) uniqueness conflicts:\n" + conflicts.map { "  \($0)" }.joined(separator: "\n")
    }
}
