import Foundation
import Synchronization

/// Turns a Transformable attribute's value into the bytes the store keeps and back, as
/// Foundation's `ValueTransformer` does for Core Data; registered by the name the model gives
/// (``setValueTransformer(_:forName:)``).
///
/// Subclass it as for Core Data: ``transformedValue(_:)`` turns the app's value into `Data`
/// (what a save stores), ``reverseTransformedValue(_:)`` turns the stored `Data` back (what a
/// read gives), and ``allowsReverseTransformation()`` must say yes.
///
/// ```swift
/// final class ColorTransformer: ValueTransformer {
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? {          // model → store
///         (value as? Color).map { Data([$0.red, $0.green, $0.blue]) }
///     }
///     override func reverseTransformedValue(_ value: Any?) -> Any? {   // store → model
///         (value as? Data).flatMap { $0.count == 3 ? Color(red: $0[0], green: $0[1], blue: $0[2]) : nil }
///     }
/// }
/// ValueTransformer.setValueTransformer(ColorTransformer(), forName: NSValueTransformerName("ColorTransformer"))
/// ```
///
/// Foundation on Linux has no `ValueTransformer`, so GraphStore has its own, with Foundation's
/// names. Where it departs: a transformer is found with ``valueTransformer(forName:)`` rather
/// than `ValueTransformer(forName:)` (a Swift initializer cannot hand back a registered
/// instance); `NSSecureUnarchiveFromData` and `NSKeyedUnarchiveFromData` are registered from the
/// start (``SecureUnarchiveFromDataTransformer``); and a transformer is `Sendable`: contexts on
/// any task call the one registered instance, as Core Data's contexts on any queue do, so a
/// subclass must keep no state that is not safe to share.
open class ValueTransformer: @unchecked Sendable {
    /// A transformer.
    public init() {}

    /// The class of the values ``transformedValue(_:)`` gives. Informational: GraphStore does
    /// not check it (a Swift value type has no class).
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Whether ``reverseTransformedValue(_:)`` undoes ``transformedValue(_:)``; Core Data
    /// needs it to read stored values. The default is yes, as Foundation's.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The value transformed (for a Transformable attribute: the app's value to the `Data` a
    /// save stores). The default gives the value back.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The transformation undone (the stored `Data` to the app's value). The default runs
    /// ``transformedValue(_:)``, as Foundation's does, when reverse transformation is allowed.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        type(of: self).allowsReverseTransformation() ? transformedValue(value) : nil
    }

    // MARK: - The registry

    /// The registered transformers: Foundation's two unarchiving ones from the start.
    private static let registry = Mutex<[ValueTransformerName: ValueTransformer]>([
        .secureUnarchiveFromDataTransformerName: SecureUnarchiveFromDataTransformer(),
        .keyedUnarchiveFromDataTransformerName: KeyedUnarchiveFromDataTransformer(),
    ])

    /// Registers a transformer under a name (nil removes the one registered), for every
    /// attribute whose model names it.
    ///
    /// ```swift
    /// ValueTransformer.setValueTransformer(ColorTransformer(), forName: .init("ColorTransformer"))
    /// ```
    public static func setValueTransformer(_ transformer: ValueTransformer?, forName name: ValueTransformerName) {
        registry.withLock { $0[name] = transformer }
    }

    /// The transformer registered under a name (Foundation's `ValueTransformer(forName:)`).
    public static func valueTransformer(forName name: ValueTransformerName) -> ValueTransformer? {
        registry.withLock { $0[name] }
    }

    /// The names transformers are registered under, sorted.
    public static func valueTransformerNames() -> [ValueTransformerName] {
        registry.withLock { $0.keys.sorted { $0.rawValue < $1.rawValue } }
    }
}
