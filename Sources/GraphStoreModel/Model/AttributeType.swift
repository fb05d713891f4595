/// The type of an attribute, numbered as Core Data numbers `NSAttributeType`.
///
/// The raw values are the codes found in compiled models and in `Z_MODELCACHE`.
///
/// ```swift
/// AttributeType(xcodeName: "Integer 16")   // .integer16
/// AttributeType.date.columnType             // "TIMESTAMP"
/// ```
public enum AttributeType: Int, Sendable, Hashable, CaseIterable {
    case undefined = 0
    case integer16 = 100
    case integer32 = 200
    case integer64 = 300
    case decimal = 400
    case double = 500
    case float = 600
    case string = 700
    case boolean = 800
    case date = 900
    case binaryData = 1000
    case uuid = 1100
    case uri = 1200
    case transformable = 1800
    case objectID = 2000
    case composite = 2100

    /// The name Xcode writes in a model's `contents` file (`attributeType="Integer 16"`).
    public var xcodeName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binaryData: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        }
    }

    /// Reads Xcode's attribute type name (`"Integer 32"`, `"Binary"`, ...).
    public init?(xcodeName: String) {
        guard let type = AttributeType.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = type
    }

    /// The SQL type Core Data declares for a column of this type.
    public var columnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .date: "TIMESTAMP"
        case .string, .uri: "VARCHAR"
        case .binaryData, .uuid, .transformable, .undefined, .objectID, .composite: "BLOB"
        }
    }

    /// Whether values of this type are integers (16, 32 or 64 bits).
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values of this type are numbers, so minimum and maximum compare values.
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The range an integer type can hold, or nil for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}
