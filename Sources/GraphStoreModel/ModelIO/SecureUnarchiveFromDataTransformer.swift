import Foundation

/// `NSSecureUnarchiveFromData`: reads and writes a Transformable value as an `NSKeyedArchiver`
/// archive of Foundation's plist classes, as Foundation's `NSSecureUnarchiveFromDataTransformer`
/// does: arrays, dictionaries, sets, strings, numbers (Booleans and decimal numbers too), dates,
/// data, URLs, UUIDs and null (``PropertyListValue``).
///
/// As Foundation's, it transforms *from* data: ``transformedValue(_:)`` unarchives and
/// ``reverseTransformedValue(_:)`` archives, and Core Data (and GraphStore) use it the other
/// way round from a custom transformer: unarchiving to read, archiving to save. A subclass
/// may narrow ``allowedTopLevelClassNames``; a class outside the list, at any level of the
/// archive, is refused by name (``TransformerError/Reason/classNotAllowed(_:)``).
///
/// ```swift
/// let bytes = SecureUnarchiveFromDataTransformer().reverseTransformedValue(["a", "b"]) as? Data
/// let tags = SecureUnarchiveFromDataTransformer().transformedValue(bytes) as? [String]   // ["a", "b"]
/// ```
///
/// Where it departs: Swift on Linux has no classes to look up by name, so the classes are
/// named (``allowedTopLevelClassNames``, not `allowedTopLevelClasses`), and only those
/// listed here can be decoded: a subclass that needs a class of its own (`UIColor`)
/// overrides ``transformedValue(_:)`` and ``reverseTransformedValue(_:)`` instead.
open class SecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes an archive's objects must be of (or subclasses of), by name: by default
    /// `NSArray`, `NSDictionary`, `NSSet`, `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`,
    /// `NSUUID` and `NSNull`, as Foundation's.
    open class var allowedTopLevelClassNames: Set<String> { ArchivedFoundationClass.secureUnarchiveDefaults }

    override open class func allowsReverseTransformation() -> Bool { true }

    /// The value an archive holds, as Foundation values (``PropertyListValue/foundationValue``);
    /// nil when `value` is not `Data` or not a readable archive of the allowed classes.
    override open func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? decode(data).foundationValue
    }

    /// The archive of a value (`Data`); nil when it is not of Foundation's plist types.
    override open func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? encode(value)
    }

    /// The name errors give the transformer.
    var errorName: String { ValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue }

    /// The archive read, or why it cannot be.
    package func decode(_ data: Data) throws(TransformerError) -> PropertyListValue {
        try PropertyListValue(keyedArchive: data, allowing: type(of: self).allowedTopLevelClassNames, transformerName: errorName)
    }

    /// The value archived, or why it cannot be.
    func encode(_ value: Any) throws(TransformerError) -> Data {
        guard let plist = PropertyListValue(foundationValue: value) else {
            throw TransformerError(.notArchivable(PropertyListValue.unarchivableTypeName(value) ?? "\(type(of: value))"), transformerName: errorName)
        }
        if let refused = plist.firstClass(notAllowedBy: type(of: self).allowedTopLevelClassNames) {
            throw TransformerError(.classNotAllowed(refused), transformerName: errorName)
        }
        do {
            return try PropertyListArchiveWriter.write(plist)
        } catch {
            throw TransformerError(error, transformerName: errorName)
        }
    }
}

/// `NSKeyedUnarchiveFromData`, Core Data's legacy default (a model that names no transformer).
/// Foundation's decodes any `NSCoding` class; on Linux there are none to decode by name, so
/// it reads and writes what ``SecureUnarchiveFromDataTransformer`` does.
final class KeyedUnarchiveFromDataTransformer: SecureUnarchiveFromDataTransformer, @unchecked Sendable {
    override var errorName: String { ValueTransformerName.keyedUnarchiveFromDataTransformerName.rawValue }
}

extension PropertyListValue {
    /// The first class of the value, at any level, that `allowed` does not allow.
    func firstClass(notAllowedBy allowed: Set<String>) -> String? {
        let own = ArchivedFoundationClass(rawValue: className).map { $0.isAllowed(by: allowed) } ?? false
        if !own { return className }
        switch self {
        case .array(let items): return items.lazy.compactMap { $0.firstClass(notAllowedBy: allowed) }.first
        case .set(let items): return items.lazy.compactMap { $0.firstClass(notAllowedBy: allowed) }.first
        case .dictionary(let entries):
            return entries.lazy.compactMap { $0.key.firstClass(notAllowedBy: allowed) ?? $0.value.firstClass(notAllowedBy: allowed) }.first
        case .url(let url):
            return url.baseURL.flatMap { PropertyListValue.url($0).firstClass(notAllowedBy: allowed) }
        default: return nil
        }
    }
}
