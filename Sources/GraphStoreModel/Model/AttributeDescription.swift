import Foundation

/// An attribute of an entity: its name, type, optionality, default and validation rules.
///
/// ```swift
/// let price = AttributeDescription("price", .double).required().minimum(15)
/// let title = AttributeDescription("title", .string).required().length(1...200)
/// ```
public struct AttributeDescription: Sendable, Hashable {
    /// The property name (`title`); its column is `Z` + the name upper-cased.
    public var name: String
    /// The attribute type.
    public var type: AttributeType
    /// Whether the value may be nil at save time. Xcode's default for a new attribute is yes.
    public var isOptional: Bool
    /// Transient attributes live in memory only and have no column.
    public var isTransient: Bool
    /// The value a newly inserted object starts with.
    public var defaultValue: AttributeValue?
    /// Smallest allowed number (numeric types).
    public var minValue: Double?
    /// Largest allowed number (numeric types).
    public var maxValue: Double?
    /// Shortest allowed length in characters (strings) or bytes (binary data).
    public var minLength: Int?
    /// Longest allowed length in characters (strings) or bytes (binary data).
    public var maxLength: Int?
    /// Earliest allowed date.
    public var minDate: Date?
    /// Latest allowed date.
    public var maxDate: Date?
    /// An ICU regular expression the whole string must match.
    public var regularExpression: String?
    /// Whether large binary values may be stored outside the database file.
    public var allowsExternalBinaryDataStorage: Bool
    /// The value transformer of a Transformable attribute (`NSSecureUnarchiveFromData`).
    public var valueTransformerName: String?
    /// The class the value is presented as (`customClassName`, `NSAttributeValueClassName`).
    public var valueClassName: String?
    /// The legacy per-attribute index flag.
    public var isIndexed: Bool
    /// For a derived attribute, the expression it is derived from (`pages.@count`).
    public var derivationExpression: String?
    /// Whether the value is kept in persistent history after the object is deleted.
    public var preservesValueInHistoryOnDeletion: Bool
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String?
    /// The name this property had in an earlier model version (Xcode's `elementID`).
    public var renamingIdentifier: String?
    /// Free-form key/value pairs from the model.
    public var userInfo: [String: String]
    /// Whether generated code gives a number or Boolean a plain Swift type (`Int64`,
    /// `Bool`), never optional, rather than an optional one (Xcode's "Use Scalar Type",
    /// `usesScalarValueType`; absent means no).
    public var usesScalarValueType = false

    /// Creates an attribute; optional and persistent unless told otherwise.
    public init(_ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: AttributeValue? = nil) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.isTransient = false
        self.defaultValue = defaultValue
        self.allowsExternalBinaryDataStorage = false
        self.isIndexed = false
        self.preservesValueInHistoryOnDeletion = false
        self.userInfo = [:]
    }

    /// Whether the attribute has a column in the store.
    public var isStored: Bool { !isTransient }

    /// A copy that must have a value at save time.
    public func required() -> Self { with { $0.isOptional = false } }
    /// A copy that lives in memory only.
    public func transient() -> Self { with { $0.isTransient = true } }
    /// A copy derived from an expression, recomputed by every save (`pages.@count`,
    /// `canonical:(title)`, `author.name`, `items.price.@sum`, `now()`; see ``Derivation``).
    public func derived(_ expression: String) -> Self { with { $0.derivationExpression = expression } }
    /// A copy with a default value.
    public func defaultValue(_ value: AttributeValue?) -> Self { with { $0.defaultValue = value } }
    /// A copy with a smallest allowed number.
    public func minimum(_ value: Double) -> Self { with { $0.minValue = value } }
    /// A copy with a largest allowed number.
    public func maximum(_ value: Double) -> Self { with { $0.maxValue = value } }
    /// A copy with bounds on the length of a string or binary value.
    public func length(_ range: ClosedRange<Int>) -> Self {
        with { $0.minLength = range.lowerBound; $0.maxLength = range.upperBound }
    }
    /// A copy with a longest allowed length.
    public func maxLength(_ value: Int) -> Self { with { $0.maxLength = value } }
    /// A copy with a shortest allowed length.
    public func minLength(_ value: Int) -> Self { with { $0.minLength = value } }
    /// A copy whose string values must match a regular expression.
    public func pattern(_ regex: String) -> Self { with { $0.regularExpression = regex } }
    /// A copy with bounds on dates.
    public func dates(from earliest: Date? = nil, to latest: Date? = nil) -> Self {
        with { $0.minDate = earliest; $0.maxDate = latest }
    }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
