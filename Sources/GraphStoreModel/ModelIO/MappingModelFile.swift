import Foundation

/// An Xcode mapping model read from disk: a `.xcmappingmodel` bundle or the
/// `xcmapping.xml` inside one.
///
/// The file is a Core Data XML store of Xcode's mapping classes: one `XDDEVMAPPINGMODEL`
/// with snapshots of the source and destination models (keyed archives of the same
/// classes as an Xcode 3 `elements` model), `XDDEVENTITYMAPPING` objects in the order of
/// their `mappingnumber`, and their `XDDEVATTRIBUTEMAPPING` and `XDDEVRELATIONSHIPMAPPING`
/// objects, whose value expressions are archived `NSExpression`s. Names and mapping types,
/// which the file does not hold, are worked out as Xcode's compiler (`mapc`) does (see
/// ``EntityMapping``). Anything missing or not understood is a ``MappingModelError``
/// naming the file and the mapping.
///
/// ```swift
/// let file = try MappingModelFile(path: "Models/Model2toModel3.xcmappingmodel")
/// file.mappingModel.entityMappings.map(\.name)   // ["ItemToItem", "UnitToUnit"]
/// ```
public struct MappingModelFile: Sendable {
    /// The path as given.
    public let path: String
    /// The `xcmapping.xml` read.
    public let sourcePath: String
    /// The mapping model.
    public let mappingModel: MappingModel

    /// Reads a mapping model bundle, or its `xcmapping.xml`.
    public init(path: String) throws(MappingModelError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        let file = isDirectory.boolValue ? (path as NSString).appendingPathComponent("xcmapping.xml") : path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw FileManager.default.fileExists(atPath: file)
                ? .unreadable(path: file, reason: ModelIOText.shortError(error))
                : .notAMappingModel(path: path, reason: "it has no xcmapping.xml")
        }
        self.path = path
        self.sourcePath = file
        self.mappingModel = try MappingModelReader(path: file).read(data)
    }

    /// Whether a path names a mapping model bundle.
    public static func isMappingModel(_ path: String) -> Bool {
        (path as NSString).pathExtension == "xcmappingmodel"
    }
}

/// Reads `xcmapping.xml` (see ``MappingModelFile``).
struct MappingModelReader {
    let path: String

    /// An `<object>` of the file: its type and attribute and relationship values.
    private struct StoredObject {
        var type: String
        var id: String
        var attributes: [String: (type: String, text: String)]
        var relationships: [String: [String]]
    }

    func read(_ data: Data) throws(MappingModelError) -> MappingModel {
        let root: ModelXMLElement
        do {
            root = try ModelXMLElement.parse(data, allowingDoctype: true)
        } catch {
            throw .notAMappingModel(path: path, reason: error.description)
        }
        guard root.name == "database" else {
            throw .notAMappingModel(path: path, reason: "its root element is <\(root.name)>, not a Core Data XML store's <database>")
        }
        let objects = root.children(named: "object").map(storedObject)
        let byID = Dictionary(objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let models = objects.filter { $0.type == "XDDEVMAPPINGMODEL" }
        guard models.count == 1, let model = models.first else {
            throw .notAMappingModel(path: path, reason: "it holds \(models.count) XDDEVMAPPINGMODEL objects, not one")
        }
        let entityObjects = (model.relationships["entitymappings"] ?? []).compactMap { byID[$0] }
            .sorted { (number($0), order($0.id)) < (number($1), order($1.id)) }
        var mappings: [MappingModel.EntityMapping] = []
        for object in entityObjects {
            mappings.append(try entityMapping(object, byID))
        }
        var seen: Set<String> = []
        for mapping in mappings where !seen.insert(mapping.name).inserted {
            throw .malformed(path: path, mapping: mapping.name, property: nil, reason: "two entity mappings have this name")
        }
        return MappingModel(
            sourceModel: try snapshot(model, "sourcemodeldata"), destinationModel: try snapshot(model, "destinationmodeldata"),
            sourceModelPath: text(model, "sourcemodelpath"), destinationModelPath: text(model, "destinationmodelpath"),
            entityMappings: mappings)
    }

    private func storedObject(_ element: ModelXMLElement) -> StoredObject {
        var attributes: [String: (type: String, text: String)] = [:]
        var relationships: [String: [String]] = [:]
        for child in element.children {
            guard let name = child.text("name") else { continue }
            if child.name == "attribute" {
                attributes[name] = (child.text("type") ?? "string", child.text)
            } else if child.name == "relationship" {
                relationships[name] = (child.text("idrefs") ?? "").split(separator: " ").map(String.init)
            }
        }
        return StoredObject(type: element.text("type") ?? "", id: element.text("id") ?? "", attributes: attributes, relationships: relationships)
    }

    private func entityMapping(_ object: StoredObject, _ byID: [String: StoredObject]) throws(MappingModelError) -> MappingModel.EntityMapping {
        let source = text(object, "sourcename")
        let destination = text(object, "destinationname")
        let name: String
        switch (source, destination) {
        case (let source?, let destination?): name = "\(source)To\(destination)"
        case (nil, let destination?): name = destination
        case (let source?, nil): name = source
        case (nil, nil): throw .malformed(path: path, mapping: object.id, property: nil, reason: "an entity mapping names neither a source nor a destination entity")
        }
        let policy = text(object, "migrationpolicyclassname")
        let kind = try self.kind(text(object, "mappingtypename"), source: source, destination: destination, policy: policy, mapping: name)
        var attributes: [MappingModel.PropertyMapping] = []
        for id in object.relationships["attributemappings"] ?? [] {
            guard let property = byID[id] else { throw .malformed(path: path, mapping: name, property: nil, reason: "it refers to a missing attribute mapping \(id)") }
            attributes.append(try propertyMapping(property, mapping: name))
        }
        var relationships: [MappingModel.PropertyMapping] = []
        for id in object.relationships["relationshipmappings"] ?? [] {
            guard let property = byID[id] else { throw .malformed(path: path, mapping: name, property: nil, reason: "it refers to a missing relationship mapping \(id)") }
            relationships.append(try propertyMapping(property, mapping: name))
        }
        return MappingModel.EntityMapping(
            name: name, kind: kind, sourceEntity: source, destinationEntity: destination, policyClassName: policy,
            sourceFilter: text(object, "sourcefilterpredicatestring"), userInfo: try userInfo(object, mapping: name),
            attributeMappings: attributes.sorted { $0.name < $1.name }, relationshipMappings: relationships.sorted { $0.name < $1.name })
    }

    /// The mapping type: the one the file names (older files), or worked out as Xcode's
    /// compiler does for "Undefined".
    private func kind(_ declared: String?, source: String?, destination: String?, policy: String?, mapping: String) throws(MappingModelError) -> MappingModel.EntityMapping.Kind {
        switch declared?.lowercased() {
        case nil, "undefined", "":
            if source == nil { return .add }
            if destination == nil { return .remove }
            return policy == nil ? .copy : .custom
        case let named?:
            guard let kind = MappingModel.EntityMapping.Kind(rawValue: named) else {
                throw .malformed(path: path, mapping: mapping, property: nil, reason: "unknown mapping type \(declared ?? "")")
            }
            return kind
        }
    }

    private func propertyMapping(_ object: StoredObject, mapping: String) throws(MappingModelError) -> MappingModel.PropertyMapping {
        guard let name = text(object, "name") else {
            throw .malformed(path: path, mapping: mapping, property: nil, reason: "a property mapping has no name")
        }
        var expression: String?
        if let data = try binary(object, "valueexpressiondata", mapping: mapping, property: name) {
            expression = try self.expression(data, mapping: mapping, property: name)
        }
        return MappingModel.PropertyMapping(
            name: name, valueExpression: expression, sourceKeyPath: text(object, "sourcekeypath"), sourceMappingName: text(object, "sourcemappingname"))
    }

    /// An archived `NSExpression` as a format string.
    private func expression(_ data: Data, mapping: String, property: String) throws(MappingModelError) -> String {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(propertyList: data)
        } catch {
            throw .malformed(path: path, mapping: mapping, property: property, reason: "its value expression is not a keyed archive (\(error))")
        }
        guard let text = ArchivedPredicateFormatter(archive: archive).expression(archive.top["root"]) else {
            throw .malformed(path: path, mapping: mapping, property: property,
                reason: "its value expression holds \(archive.root?.className ?? "an object") in a form GraphStore does not read")
        }
        return text
    }

    private func userInfo(_ object: StoredObject, mapping: String) throws(MappingModelError) -> [String: String] {
        guard let data = try binary(object, "userinfodata", mapping: mapping, property: nil) else { return [:] }
        do {
            let archive = try KeyedArchive(propertyList: data)
            return archive.stringDictionary(archive.top["root"])
        } catch {
            throw .malformed(path: path, mapping: mapping, property: nil, reason: "its user info is not a keyed archive (\(error))")
        }
    }

    /// A model snapshot, read as an Xcode 3 `elements` archive is.
    private func snapshot(_ object: StoredObject, _ attribute: String) throws(MappingModelError) -> ManagedObjectModel? {
        let side = attribute.hasPrefix("source") ? "source" : "destination"
        guard let data = try binary(object, attribute, mapping: nil, property: nil) else { return nil }
        do {
            var draft = try LegacyModelReader(path: path).read(data)
            return try draft.build()
        } catch {
            throw .malformed(path: path, mapping: nil, property: nil, reason: "its \(side) model snapshot cannot be read (\(error))")
        }
    }

    private func text(_ object: StoredObject, _ attribute: String) -> String? {
        guard let value = object.attributes[attribute], value.type == "string", !value.text.isEmpty else { return nil }
        return MappingModelReader.unescaped(value.text)
    }

    private func binary(_ object: StoredObject, _ attribute: String, mapping: String?, property: String?) throws(MappingModelError) -> Data? {
        guard let value = object.attributes[attribute] else { return nil }
        guard let data = Data(base64Encoded: value.text.filter { !$0.isWhitespace }) else {
            throw .malformed(path: path, mapping: mapping, property: property, reason: "\(attribute) is not base64")
        }
        return data
    }

    private func number(_ object: StoredObject) -> Int { object.attributes["mappingnumber"].flatMap { Int($0.text) } ?? 0 }

    /// The number of an object id (`z107` → 107): the file's own order, for mappings that
    /// share a number.
    private func order(_ id: String) -> Int { Int(id.dropFirst()) ?? 0 }

    /// Xcode writes a few characters of strings as `\uXXXX` with the bytes of the UTF-16
    /// unit swapped (`messageID \u3c00 10000` is `messageID < 10000`).
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "\\u") {
            result += rest[..<range.lowerBound]
            let hex = rest[range.upperBound...].prefix(4)
            if hex.count == 4, let unit = UInt16(hex, radix: 16), let scalar = Unicode.Scalar(unit.byteSwapped) {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(range.upperBound, offsetBy: 4)...]
            } else {
                result += "\\u"
                rest = rest[range.upperBound...]
            }
        }
        return result + rest
    }
}
