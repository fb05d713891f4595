import Foundation

/// A Swift type an ``Attribute`` property may have: `String?`, `Int64`, `Date?`, `Bool`…
///
/// A non-optional type reads its *empty value* (0, false, "", …) when the object holds no
/// value (a new object whose attribute has no default, a scalar of an optional attribute, as
/// Core Data's generated scalars do) or when the read fails (see ``AccessError``); an
/// optional type reads nil then.
///
/// | attribute type | Swift type |
/// |---|---|
/// | Integer 16, 32, 64 | `Int16`, `Int32`, `Int64` |
/// | Double, Float | `Double`, `Float` |
/// | Boolean | `Bool` |
/// | Decimal | `Decimal` |
/// | String | `String` |
/// | Date | `Date` |
/// | Binary data, Transformable | `Data` |
/// | UUID | `UUID` |
/// | URI | `URL` |
/// | Undefined (transient) | `AttributeValue` |
public protocol AttributeProperty {
    /// The Swift value for what the object holds (nil: no value); nil when it does not convert.
    static func propertyValue(from stored: AttributeValue?) -> Self?
    /// What the object holds for this Swift value.
    var storedValue: AttributeValue? { get }
    /// What the property reads when the object holds no value, or its value cannot be read.
    static var emptyPropertyValue: Self { get }
}

extension AttributeProperty where Self: AttributeConvertible {
    public static func propertyValue(from stored: AttributeValue?) -> Self? {
        guard let stored else { return emptyPropertyValue }
        return Self(attributeValue: stored)
    }

    public var storedValue: AttributeValue? { attributeValue }
}

extension Optional: AttributeProperty where Wrapped: AttributeConvertible {
    public static func propertyValue(from stored: AttributeValue?) -> Self? {
        guard let stored else { return .some(nil) }
        return Wrapped(attributeValue: stored).map { .some($0) }
    }

    public var storedValue: AttributeValue? { self?.attributeValue }
    public static var emptyPropertyValue: Self { nil }
}

extension Int16: AttributeProperty { public static var emptyPropertyValue: Int16 { 0 } }
extension Int32: AttributeProperty { public static var emptyPropertyValue: Int32 { 0 } }
extension Int64: AttributeProperty { public static var emptyPropertyValue: Int64 { 0 } }
extension Int: AttributeProperty { public static var emptyPropertyValue: Int { 0 } }
extension Double: AttributeProperty { public static var emptyPropertyValue: Double { 0 } }
extension Float: AttributeProperty { public static var emptyPropertyValue: Float { 0 } }
extension Bool: AttributeProperty { public static var emptyPropertyValue: Bool { false } }
extension Decimal: AttributeProperty { public static var emptyPropertyValue: Decimal { 0 } }
extension String: AttributeProperty { public static var emptyPropertyValue: String { "" } }
extension Data: AttributeProperty { public static var emptyPropertyValue: Data { Data() } }
/// Core Data's reference date (2001-01-01 00:00:00 UTC), where its dates count from.
extension Date: AttributeProperty { public static var emptyPropertyValue: Date { Date(timeIntervalSinceReferenceDate: 0) } }
/// The all-zero UUID.
extension UUID: AttributeProperty { public static var emptyPropertyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) } }
/// `file:///`, the root folder (a URL cannot be empty).
extension URL: AttributeProperty {
    public static var emptyPropertyValue: URL { URL(fileURLWithPath: "/") }
}

/// An attribute value as itself: for attributes of undefined type (transient ones), whose
/// values may be of any type.
extension AttributeValue: AttributeConvertible {
    public var attributeValue: AttributeValue { self }
    public init?(attributeValue: AttributeValue) { self = attributeValue }
}
