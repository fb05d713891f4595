import Foundation

/// A value of Foundation's classes that `NSSecureUnarchiveFromData` decodes: property-list
/// values (strings, numbers, Booleans, dates, data, arrays, dictionaries) and sets, URLs,
/// UUIDs and null; what a Transformable attribute with Core Data's default transformer holds.
///
/// `Sendable` and `Hashable`, so that it can be compared and passed between contexts; for
/// code written against Core Data's `Any` values, ``foundationValue`` gives the value as
/// `[Any]`, `[AnyHashable: Any]`, `NSNumber`… and ``init(foundationValue:)`` reads one back.
///
/// ```swift
/// let tags: PropertyListValue = ["fiction", "classic"]          // .array([.string("fiction"), …])
/// let bytes = try tags.keyedArchive()                            // NSKeyedArchiver's binary plist
/// try PropertyListValue(keyedArchive: bytes) == tags             // true
/// (tags.foundationValue as? [String]) == ["fiction", "classic"]  // true
/// ```
public indirect enum PropertyListValue: Sendable, Hashable {
    /// `NSString`, `NSMutableString`.
    case string(String)
    /// An integer `NSNumber`.
    case integer(Int64)
    /// A floating-point `NSNumber`.
    case double(Double)
    /// A Boolean `NSNumber` (`kCFBooleanTrue`, `kCFBooleanFalse`).
    case bool(Bool)
    /// `NSDecimalNumber`.
    case decimal(Decimal)
    /// `NSDate`.
    case date(Date)
    /// `NSData`, `NSMutableData`.
    case data(Data)
    /// `NSURL`: a relative URL keeps its base (`URL.baseURL`).
    case url(URL)
    /// `NSUUID`.
    case uuid(UUID)
    /// `NSNull`.
    case null
    /// `NSArray`, `NSMutableArray`.
    case array([PropertyListValue])
    /// `NSSet`, `NSMutableSet`.
    case set(Set<PropertyListValue>)
    /// `NSDictionary`, `NSMutableDictionary`.
    case dictionary([PropertyListValue: PropertyListValue])

    /// The Foundation class an archive names for this value (`NSArray`, `NSString`…).
    public var className: String {
        switch self {
        case .string: "NSString"
        case .integer, .double, .bool: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .date: "NSDate"
        case .data: "NSData"
        case .url: "NSURL"
        case .uuid: "NSUUID"
        case .null: "NSNull"
        case .array: "NSArray"
        case .set: "NSSet"
        case .dictionary: "NSDictionary"
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (PropertyListValue, PropertyListValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Foundation's values

extension PropertyListValue {
    /// The value as Core Data hands a decoded Transformable value to an app: `String`,
    /// `NSNumber` (which `as? Int`, `as? Double`, `as? Bool` read), `NSDecimalNumber`, `Date`,
    /// `Data`, `URL`, `UUID`, `NSNull`, `[Any]`, `Set<AnyHashable>`, `[AnyHashable: Any]`
    /// (which `as? [String: Any]` reads).
    public var foundationValue: Any {
        switch self {
        case .string(let s): return s
        case .integer(let v): return NSNumber(value: v)
        case .double(let v): return NSNumber(value: v)
        case .bool(let v): return NSNumber(value: v)
        case .decimal(let v): return NSDecimalNumber(decimal: v)
        case .date(let v): return v
        case .data(let v): return v
        case .url(let v): return v
        case .uuid(let v): return v
        case .null: return NSNull()
        case .array(let items): return items.map(\.foundationValue)
        case .set(let items): return Set(items.map(\.hashableFoundationValue))
        case .dictionary(let entries):
            var result: [AnyHashable: Any] = [:]
            for (key, value) in entries { result[key.hashableFoundationValue] = value.foundationValue }
            return result
        }
    }

    /// The Foundation value as a set member or dictionary key; a collection, which Swift
    /// cannot hash as `Any`, stays itself.
    private var hashableFoundationValue: AnyHashable {
        switch self {
        case .array, .set, .dictionary: AnyHashable(self)
        default: (foundationValue as? AnyHashable) ?? AnyHashable(self)
        }
    }

    /// Reads a Swift or Foundation value (`String`, any integer, `Double`, `Float`, `Bool`,
    /// `Decimal`, `NSNumber`, `Date`, `Data`, `URL`, `UUID`, `NSNull`, arrays, sets and
    /// dictionaries of them, or a `PropertyListValue`); nil for anything else, naming nothing:
    /// ``unarchivableTypeName(_:)`` says which part did not fit.
    public init?(foundationValue value: Any) {
        guard let converted = PropertyListValue.convert(value, depth: 0) else { return nil }
        self = converted
    }

    /// The type of the first part of `value` that no archive of Foundation's plist types can
    /// hold (`"UIColor"`, `"Array<Point>"`), or nil when it all fits.
    public static func unarchivableTypeName(_ value: Any) -> String? {
        PropertyListValue.convert(value, depth: 0) == nil ? firstUnfitting(value, depth: 0) : nil
    }

    private static func firstUnfitting(_ value: Any, depth: Int) -> String {
        guard depth < 64 else { return "a value nested deeper than 64 levels" }
        if let list = value as? [Any] {
            for item in list where convert(item, depth: depth + 1) == nil { return firstUnfitting(item, depth: depth + 1) }
        } else if let entries = value as? [AnyHashable: Any] {
            for (key, item) in entries {
                if convert(key.base, depth: depth + 1) == nil { return firstUnfitting(key.base, depth: depth + 1) }
                if convert(item, depth: depth + 1) == nil { return firstUnfitting(item, depth: depth + 1) }
            }
        }
        return String(describing: type(of: value))
    }

    /// The conversion behind ``init(foundationValue:)``; collections nest at most 64 deep
    /// (the archive writer's limit).
    private static func convert(_ value: Any, depth: Int) -> PropertyListValue? {
        guard depth < 64 else { return nil }
        let child = { (item: Any) in convert(item, depth: depth + 1) }
        // A class instance first: a Swift number cast to NSNumber would go through bridging.
        if type(of: value) is AnyClass, let number = value as? NSNumber {
            if let decimal = number as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
            return PropertyListValue.number(number)
        }
        switch value {
        case let v as PropertyListValue: return v
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int: return .integer(Int64(v))
        case let v as Int64: return .integer(v)
        case let v as Int32: return .integer(Int64(v))
        case let v as Int16: return .integer(Int64(v))
        case let v as Int8: return .integer(Int64(v))
        case let v as UInt8: return .integer(Int64(v))
        case let v as UInt16: return .integer(Int64(v))
        case let v as UInt32: return .integer(Int64(v))
        case let v as UInt: return Int64(exactly: v).map { .integer($0) }
        case let v as UInt64: return Int64(exactly: v).map { .integer($0) }
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as Decimal: return .decimal(v)
        case let v as Date: return .date(v)
        case let v as Data: return .data(v)
        case let v as URL: return .url(v)
        case let v as UUID: return .uuid(v)
        case is NSNull: return .null
        case let v as Set<AnyHashable>:
            var items = Set<PropertyListValue>()
            for item in v {
                guard let converted = child(item.base) else { return nil }
                items.insert(converted)
            }
            return .set(items)
        case let v as [AnyHashable: Any]:
            var entries: [PropertyListValue: PropertyListValue] = [:]
            for (key, item) in v {
                guard let k = child(key.base), let converted = child(item) else { return nil }
                entries[k] = converted
            }
            return .dictionary(entries)
        case let v as [Any]:
            var items: [PropertyListValue] = []
            for item in v {
                guard let converted = child(item) else { return nil }
                items.append(converted)
            }
            return .array(items)
        default:
            return nil
        }
    }

    /// An `NSNumber` by the kind it holds: `objCType` tells a Boolean (`c`, `B`) and a real
    /// (`d`, `f`) from an integer.
    private static func number(_ number: NSNumber) -> PropertyListValue {
        switch String(cString: number.objCType) {
        case "c", "B": .bool(number.boolValue)
        case "d", "f": .double(number.doubleValue)
        case "Q" where number.uint64Value > UInt64(Int64.max): .double(number.doubleValue)
        default: .integer(number.int64Value)
        }
    }
}
