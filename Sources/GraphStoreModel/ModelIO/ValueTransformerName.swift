/// The name a value transformer is registered under, and a model names for a Transformable
/// attribute (Xcode's "Transformer" field, `valueTransformerName`).
///
/// Foundation's `NSValueTransformerName`; ``NSValueTransformerName`` is the same type under
/// Foundation's spelling, so that a ported registration line compiles as it is.
///
/// ```swift
/// extension NSValueTransformerName {
///     static let colorTransformer = NSValueTransformerName("ColorTransformer")
/// }
/// ```
public struct ValueTransformerName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as the model writes it.
    public var rawValue: String

    /// A name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A name (`NSValueTransformerName("ColorTransformer")`).
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A name written as a string literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// The name.
    public var description: String { rawValue }

    /// `NSSecureUnarchiveFromData`: Xcode's default for a new Transformable attribute since
    /// iOS 13 and macOS 10.15; reads and writes keyed archives of Foundation's plist classes
    /// (``SecureUnarchiveFromDataTransformer``).
    public static let secureUnarchiveFromDataTransformerName = ValueTransformerName("NSSecureUnarchiveFromData")
    /// `NSKeyedUnarchiveFromData`: the legacy default, what Core Data uses when a model names
    /// no transformer. GraphStore reads it as `NSSecureUnarchiveFromData` does: only
    /// Foundation's plist classes, as Swift on Linux has no classes to unarchive by name.
    public static let keyedUnarchiveFromDataTransformerName = ValueTransformerName("NSKeyedUnarchiveFromData")
}

/// Foundation's spelling of ``ValueTransformerName``, for ported code.
public typealias NSValueTransformerName = ValueTransformerName
