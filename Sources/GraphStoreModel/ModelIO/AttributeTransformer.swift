import Foundation

/// The value transformer of one Transformable attribute, and the direction Core Data uses it
/// in: the transformer the model names (`NSKeyedUnarchiveFromData` when it names none, as
/// Core Data's default), looked up in the ``ValueTransformer`` registry.
///
/// A custom transformer's ``ValueTransformer/transformedValue(_:)`` makes the stored bytes
/// and its ``ValueTransformer/reverseTransformedValue(_:)`` reads them; the unarchiving
/// transformers (``SecureUnarchiveFromDataTransformer`` and its subclasses) are used the other
/// way round, as Core Data uses them ("in reverse", its documentation says of the default).
package struct AttributeTransformer {
    let name: ValueTransformerName
    let transformer: ValueTransformer

    /// The transformer of `attribute`, or ``TransformerError/Reason/unregistered`` naming it.
    package init(for attribute: AttributeDescription) throws(TransformerError) {
        guard attribute.type == .transformable else {
            throw TransformerError(.notTransformable(attribute.type.xcodeName), transformerName: attribute.valueTransformerName ?? "", key: attribute.name)
        }
        let named = attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : $0 }
        name = named.map { ValueTransformerName($0) } ?? .keyedUnarchiveFromDataTransformerName
        guard let transformer = ValueTransformer.valueTransformer(forName: name) else {
            throw TransformerError(.unregistered, transformerName: name.rawValue, key: attribute.name)
        }
        self.transformer = transformer
    }

    /// The unarchiving transformer, when this is one.
    package var unarchiver: SecureUnarchiveFromDataTransformer? { transformer as? SecureUnarchiveFromDataTransformer }

    /// The app's value for stored bytes.
    package func value(from bytes: Data) throws(TransformerError) -> Any? {
        if let unarchiver { return try unarchiver.decode(bytes).foundationValue }
        guard type(of: transformer).allowsReverseTransformation() else { throw TransformerError(.notReversible, transformerName: name.rawValue) }
        guard let value = transformer.reverseTransformedValue(bytes) else {
            throw TransformerError(.transformationFailed("reverseTransformedValue gave nil for \(bytes.count) stored bytes"), transformerName: name.rawValue)
        }
        return value
    }

    /// The bytes to store for the app's value (nil stores no value).
    package func bytes(for value: Any?) throws(TransformerError) -> Data? {
        guard let value = AttributeTransformer.unwrapped(value) else { return nil }
        if let unarchiver { return try unarchiver.encode(value) }
        let transformed = transformer.transformedValue(value)
        guard let data = transformed as? Data else {
            let what = transformed.map { "a value of type \(type(of: $0))" } ?? "nil"
            throw TransformerError(.transformationFailed("transformedValue gave \(what), not Data, for a value of type \(type(of: value))"), transformerName: name.rawValue)
        }
        return data
    }

    /// `value` with any optionals around it taken off; nil for none.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }
}
