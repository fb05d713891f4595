/// An error that consists of validation failures: a single ``ValidationError``, a
/// ``MultipleValidationErrors`` (1560), or a ``ConstraintConflictError`` (133021).
///
/// Catch this to list every failure of a save, whichever shape it took:
///
/// ```swift
/// do {
///     try context.save()
/// } catch let failure as any ValidationErrorReporting {
///     for error in failure.validationErrors { print(error.code, error) }
/// }
/// ```
public protocol ValidationErrorReporting: Error, Sendable {
    /// Every failure, one per broken rule.
    var validationErrors: [ValidationError] { get }
}
