/// One broken rule: which object, which property, what value, and the rule it broke.
///
/// Core Data's validation errors carry the object, key and value; this one also carries
/// the rule, so its description says *why*: `Book/p7: price 5 is below the minimum 15`.
/// Saves, ``ManagedObject/validateForInsert()`` and friends, and ``StoreValidator`` all
/// report failures as values of this type (several at once inside
/// ``MultipleValidationErrors``).
///
/// Throw one from your own validation code with a reason of your own:
///
/// ```swift
/// override func validateValue(_ value: AttributeValue?, forKey key: String) throws {
///     try super.validateValue(value, forKey: key)
///     if key == "firstName", (value?.stringValue ?? "").isEmpty {
///         throw ValidationError(self, key: key, value: value, reason: "first name cannot be empty")
///     }
/// }
/// // User/t1: firstName "" is not valid: first name cannot be empty   (code 1550)
/// ```
public struct ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Core Data's code for the failure.
    public var code: ValidationErrorCode
    /// The object's entity.
    public var entity: String
    /// The object that failed.
    public var objectID: ObjectID
    /// The property at fault (for a uniqueness constraint over several properties, their
    /// names joined by commas); nil for a rule about the whole object.
    public var key: String?
    /// The value at fault: the attribute's value, or a relationship's object count.
    public var value: AttributeValue?
    /// The rule the value broke.
    public var rule: ValidationRule
    /// Other objects involved: those sharing a unique value, those a Deny rule protects,
    /// the missing destination of a dangling reference.
    public var relatedObjects: [ObjectID]

    /// Creates an error from its parts; the code defaults to the rule's.
    public init(
        code: ValidationErrorCode? = nil, objectID: ObjectID, key: String?, value: AttributeValue?, rule: ValidationRule,
        relatedObjects: [ObjectID] = []
    ) {
        self.code = code ?? rule.code
        self.entity = objectID.entityName
        self.objectID = objectID
        self.key = key
        self.value = value
        self.rule = rule
        self.relatedObjects = relatedObjects
    }

    /// An error of the app's own validation code about an object, with the reason in the
    /// app's words (code 1550 unless another fits better, e.g. `.stringPatternMismatch`).
    public init(_ object: ManagedObject, key: String? = nil, value: AttributeValue? = nil, reason: String, code: ValidationErrorCode = .invalid) {
        self.init(code: code, objectID: object.objectID, key: key, value: value, rule: .custom(reason))
    }

    /// The message: the object, then why it failed.
    public var description: String {
        "\(objectID): " + rule.failure(key: key, value: value, related: relatedObjects)
    }
}

extension ValidationError: ValidationErrorReporting {
    /// Itself.
    public var validationErrors: [ValidationError] { [self] }
}
