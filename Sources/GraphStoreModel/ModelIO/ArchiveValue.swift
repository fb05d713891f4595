import Foundation

/// One value of a keyed archive's object table, with references (`CF$UID`) left unresolved.
///
/// `PropertyListSerialization` hands back Foundation objects whose exact classes differ
/// between Linux and Apple platforms (a Boolean may arrive as `Bool` or as an `NSNumber`, a
/// reference as a private UID class). Converting once into this enum keeps every decoder
/// above it free of those differences.
package enum ArchiveValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case data(Data)
    case date(Date)
    /// An index into the archive's `$objects`.
    case reference(Int)
    case array([ArchiveValue])
    case dictionary([String: ArchiveValue])

    /// Converts a decoded property list, failing on values a property list cannot hold.
    init(propertyList value: Any, depth: Int = 0) throws(KeyedArchiveError) {
        guard depth < 512 else { throw .malformed("the property list nests deeper than 512 levels") }
        // Casting a class instance to a Swift value type (and the reverse) goes through
        // bridging, which is slow on Linux; so numbers and UIDs, the only class instances
        // Linux hands back, are recognised before any value-type cast is tried.
        if type(of: value) is AnyClass, let number = value as? NSNumber {
            self = ArchiveValue(number: number)
        } else if type(of: value) is AnyClass, let uid = ArchiveValue.uidValue(value) {
            self = .reference(uid)
        } else if type(of: value) == Bool.self, let flag = value as? Bool {
            self = .bool(flag)
        } else if let text = value as? String {
            self = .string(text)
        } else if let dictionary = value as? [AnyHashable: Any] {
            var fields: [String: ArchiveValue] = [:]
            for (key, item) in dictionary {
                guard let name = key.base as? String else { throw .malformed("a dictionary key is not a string: \(key)") }
                fields[name] = try ArchiveValue(propertyList: item, depth: depth + 1)
            }
            self = .dictionary(fields)
        } else if let list = value as? [Any] {
            var items: [ArchiveValue] = []
            items.reserveCapacity(list.count)
            for item in list { items.append(try ArchiveValue(propertyList: item, depth: depth + 1)) }
            self = .array(items)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let date = value as? Date {
            self = .date(date)
        } else if let number = value as? NSNumber {
            self = ArchiveValue(number: number)
        } else {
            throw .malformed("unexpected property-list value of type \(type(of: value))")
        }
    }

    private init(number: NSNumber) {
        // objCType tells a Boolean ("c"/"B") and a real ("d"/"f") from an integer.
        switch String(cString: number.objCType) {
        case "c", "B": self = .bool(number.boolValue)
        case "d", "f": self = .real(number.doubleValue)
        default: self = .integer(number.int64Value)
        }
    }

    /// The index a keyed-archiver UID holds, or nil when `value` is not a UID.
    ///
    /// Foundation exposes no public type for these: on Linux the class is
    /// `_NSKeyedArchiverUID` with a stored `value` (read by reflection), on Apple platforms
    /// `__NSCFKeyedArchiverUID`, whose description reads `<CFKeyedArchiverUID …>{value = N}`.
    private static func uidValue(_ value: Any) -> Int? {
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let number = child.value as? UInt32 { return Int(number) }
            if let number = child.value as? Int { return number }
            if let number = child.value as? UInt64, number <= UInt64(Int.max) { return Int(number) }
        }
        let text = String(describing: value)
        guard text.contains("KeyedArchiverUID"), let range = text.range(of: "value = ") else { return nil }
        return Int(text[range.upperBound...].prefix(while: \.isNumber))
    }

    /// The integer this value holds, accepting whole reals and Booleans.
    var integer: Int64? {
        switch self {
        case .integer(let v): v
        case .bool(let v): v ? 1 : 0
        case .real(let v) where v.rounded() == v && abs(v) < 9.2e18: Int64(v)
        default: nil
        }
    }

    /// The number this value holds, as a Double.
    var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        case .bool(let v): v ? 1 : 0
        default: nil
        }
    }

    /// The Boolean this value holds; integers count as true when non-zero.
    var bool: Bool? {
        switch self {
        case .bool(let v): v
        case .integer(let v): v != 0
        default: nil
        }
    }
}
