import Foundation

/// A Swift type that an attribute value can be read as and written from.
///
/// ```swift
/// try book.set("price", 18.5)
/// let price: Double? = try book.get("price")
/// ```
public protocol AttributeConvertible {
    /// The attribute value for this Swift value.
    var attributeValue: AttributeValue { get }
    /// The Swift value for an attribute value, or nil when it does not convert.
    init?(attributeValue: AttributeValue)
}

extension Int64: AttributeConvertible {
    public var attributeValue: AttributeValue { .integer(self) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.integerValue else { return nil }
        self = v
    }
}

extension Int: AttributeConvertible {
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.integerValue, let i = Int(exactly: v) else { return nil }
        self = i
    }
}

extension Int32: AttributeConvertible {
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.integerValue, let i = Int32(exactly: v) else { return nil }
        self = i
    }
}

extension Int16: AttributeConvertible {
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.integerValue, let i = Int16(exactly: v) else { return nil }
        self = i
    }
}

extension Double: AttributeConvertible {
    public var attributeValue: AttributeValue { .double(self) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.doubleValue else { return nil }
        self = v
    }
}

extension Float: AttributeConvertible {
    public var attributeValue: AttributeValue { .double(Double(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let v = attributeValue.doubleValue else { return nil }
        self = Float(v)
    }
}

extension Decimal: AttributeConvertible {
    public var attributeValue: AttributeValue { .decimal(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .decimal(let d): self = d
        case .integer(let v): self = Decimal(v)
        case .double(let v): self = AttributeValue.decimal(stored: v)
        default: return nil
        }
    }
}

extension String: AttributeConvertible {
    public var attributeValue: AttributeValue { .string(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let s) = attributeValue else { return nil }
        self = s
    }
}

extension Bool: AttributeConvertible {
    public var attributeValue: AttributeValue { .bool(self) }
    public init?(attributeValue: AttributeValue) {
        guard let b = attributeValue.boolValue else { return nil }
        self = b
    }
}

extension Date: AttributeConvertible {
    public var attributeValue: AttributeValue { .date(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .date(let d) = attributeValue else { return nil }
        self = d
    }
}

extension Data: AttributeConvertible {
    public var attributeValue: AttributeValue { .data(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .data(let d) = attributeValue else { return nil }
        self = d
    }
}

extension UUID: AttributeConvertible {
    public var attributeValue: AttributeValue { .uuid(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let u) = attributeValue else { return nil }
        self = u
    }
}

extension URL: AttributeConvertible {
    public var attributeValue: AttributeValue { .uri(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .uri(let u) = attributeValue else { return nil }
        self = u
    }
}
