import Foundation

/// Reads one `<attribute>` of an Xcode model entity.
///
/// Bounds follow Xcode's inspector: `minValueString`/`maxValueString` bound numbers, and
/// the *length* of strings and binary data; dates are bounded by
/// `minDateTimeInterval`/`maxDateTimeInterval` (seconds since 2001; the `*ValueString`
/// forms next to them are only the inspector's display text). A date's default is
/// `defaultDateTimeInterval`.
struct XcodeAttributeReader {
    let path: String
    let entity: String

    func read(_ element: ModelXMLElement, warnings: inout [ModelWarning]) throws(ModelFileError) -> AttributeDescription {
        guard let name = element.nonEmptyText("name") else {
            throw .malformed(path: path, entity: entity, property: nil, reason: "an <attribute> has no name")
        }
        // Xcode leaves attributeType out for an attribute of undefined type (transient ones).
        let typeName = element.nonEmptyText("attributeType") ?? AttributeType.undefined.xcodeName
        guard let type = AttributeType(xcodeName: typeName) else {
            throw .malformed(path: path, entity: entity, property: name, reason: "unknown attribute type \"\(typeName)\"")
        }
        var attribute = AttributeDescription(name, type, optional: element.flag("optional"))
        attribute.isTransient = element.flag("transient")
        attribute.isIndexed = element.flag("indexed")
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.valueTransformerName = element.nonEmptyText("valueTransformerName")
        attribute.valueClassName = element.nonEmptyText("customClassName")
        attribute.usesScalarValueType = element.flag("usesScalarValueType")
        attribute.regularExpression = element.nonEmptyText("regularExpressionString")
        attribute.versionHashModifier = element.nonEmptyText("versionHashModifier")
        attribute.renamingIdentifier = element.nonEmptyText("elementID")
        attribute.userInfo = element.userInfo
        if element.flag("derived") {
            attribute.derivationExpression = element.nonEmptyText("derivationExpression")
            if attribute.derivationExpression == nil {
                warnings.append(ModelWarning(entity: entity, property: name, "derived attribute without a derivation expression; read as a plain attribute"))
            }
        }
        if type == .undefined, !attribute.isTransient {
            warnings.append(ModelWarning(entity: entity, property: name, "a stored attribute of undefined type (Core Data accepts undefined types only for transient attributes)"))
        }
        if type == .composite {
            warnings.append(ModelWarning(entity: entity, property: name, "composite attribute \(element.text("composite") ?? ""): its fields are not modelled; read as an opaque value"))
        }
        readDefault(element, into: &attribute, warnings: &warnings)
        readBounds(element, into: &attribute, warnings: &warnings)
        return attribute
    }

    private func readDefault(_ element: ModelXMLElement, into attribute: inout AttributeDescription, warnings: inout [ModelWarning]) {
        if attribute.type == .date, let interval = element.nonEmptyText("defaultDateTimeInterval") {
            guard let seconds = Double(interval) else {
                warnings.append(ModelWarning(entity: entity, property: attribute.name, "default date \"\(interval)\" is not a number of seconds; no default"))
                return
            }
            attribute.defaultValue = .date(Date(timeIntervalSinceReferenceDate: seconds))
            return
        }
        guard let text = element.text("defaultValueString") else { return }
        if let value = DefaultValueParser.value(text, for: attribute.type) {
            attribute.defaultValue = value
        } else if !(text.isEmpty && attribute.type != .string) {
            warnings.append(ModelWarning(entity: entity, property: attribute.name, "default value \"\(text)\" does not fit type \(attribute.type.xcodeName); no default"))
        }
    }

    private func readBounds(_ element: ModelXMLElement, into attribute: inout AttributeDescription, warnings: inout [ModelWarning]) {
        let name = attribute.name
        func number(_ key: String) -> Double? {
            guard let text = element.nonEmptyText(key) else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                warnings.append(ModelWarning(entity: entity, property: name, "\(key) \"\(text)\" is not a number; ignored"))
                return nil
            }
            return value
        }
        switch attribute.type {
        case .date:
            attribute.minDate = number("minDateTimeInterval").map { Date(timeIntervalSinceReferenceDate: $0) }
            attribute.maxDate = number("maxDateTimeInterval").map { Date(timeIntervalSinceReferenceDate: $0) }
        case .string, .binaryData:
            attribute.minLength = number("minValueString").flatMap(length)
            attribute.maxLength = number("maxValueString").flatMap(length)
        case let type where type.isNumeric:
            attribute.minValue = number("minValueString")
            attribute.maxValue = number("maxValueString")
        default:
            if element.text("minValueString") != nil || element.text("maxValueString") != nil {
                warnings.append(ModelWarning(entity: entity, property: name, "bounds are not meaningful for type \(attribute.type.xcodeName); ignored"))
            }
        }
    }

    private func length(_ value: Double) -> Int? {
        guard value.isFinite, value >= 0, value < Double(Int32.max) else { return nil }
        return Int(value)
    }
}
