/// Several validation failures at once: Core Data's `NSValidationMultipleErrorsError`
/// (1560), whose `NSDetailedErrors` are ``errors``.
///
/// A save, or an object's ``ManagedObject/validateForInsert()``, throws this when more than
/// one rule is broken, and a single ``ValidationError`` otherwise.
///
/// ```swift
/// do { try context.save() } catch let failure as MultipleValidationErrors {
///     failure.code                 // 1560
///     failure.errors.map(\.code)   // [.numberTooSmall, .missingMandatoryProperty]
/// }
/// ```
public struct MultipleValidationErrors: ValidationErrorReporting, Hashable, CustomStringConvertible {
    /// Every failure, in the order found (objects in save order, properties in model order).
    public var errors: [ValidationError]

    /// Core Data's code, 1560.
    public var code: ValidationErrorCode { .multipleErrors }

    /// Wraps several failures.
    public init(_ errors: [ValidationError]) { self.errors = errors }

    /// The failures.
    public var validationErrors: [ValidationError] { errors }

    /// A heading line, then one line per failure.
    public var description: String {
        "\(errors.count) validation errors:\n" + errors.map { "  \($0)" }.joined(separator: "\n")
    }

    /// Throws nothing for no failures, the failure itself for one, and a
    /// ``MultipleValidationErrors`` for several.
    public static func throwIfAny(_ errors: [ValidationError]) throws {
        switch errors.count {
        case 0: return
        case 1: throw errors[0]
        default: throw MultipleValidationErrors(errors)
        }
    }

    /// Runs every check, even after one fails, and throws all their validation failures
    /// together (one, or 1560 for several). An error that is not a validation failure
    /// (the store could not be read, say) is thrown at once.
    ///
    /// This is how an object-level override keeps the standard checks' errors and adds its own,
    /// as Core Data's guide recommends:
    ///
    /// ```swift
    /// override func validateForUpdate() throws {
    ///     try MultipleValidationErrors.collect(
    ///         { try super.validateForUpdate() },
    ///         { try self.validateDates() })
    /// }
    /// ```
    public static func collect(_ checks: () throws -> Void...) throws {
        var errors: [ValidationError] = []
        for check in checks {
            do {
                try check()
            } catch let failure as any ValidationErrorReporting {
                errors += failure.validationErrors
            }
        }
        try throwIfAny(errors)
    }
}
