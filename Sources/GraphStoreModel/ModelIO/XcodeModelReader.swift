import Foundation

/// Reads the `contents` XML of an Xcode `.xcdatamodel` into a ``ModelDraft``.
///
/// Every element and attribute Xcode writes is read (see `coredata-format.md` §8.2).
/// Xcode writes a Boolean attribute only when it is on, so absent flags are false.
/// Layout-only elements (`<elements>`) are skipped.
struct XcodeModelReader {
    /// The `contents` file, for messages.
    let path: String

    /// Parses the XML and reads the model element.
    func read(_ data: Data) throws(ModelFileError) -> ModelDraft {
        let root: ModelXMLElement
        do {
            root = try ModelXMLElement.parse(data)
        } catch {
            throw .notAModel(path: path, reason: error.description)
        }
        guard root.name == "model" else {
            throw .notAModel(path: path, reason: "the root element is <\(root.name)>, not <model>")
        }
        if let type = root.text("type"), type != "com.apple.IDECoreDataModeler.DataModel" {
            throw .notAModel(path: path, reason: "the model type is \(type), not com.apple.IDECoreDataModeler.DataModel")
        }
        var draft = ModelDraft()
        // Core Data records the identifier as a one-element set, even when it is empty.
        if let identifier = root.text("userDefinedModelVersionIdentifier") { draft.versionIdentifiers = [identifier] }
        draft.userInfo = root.userInfo
        let entityReader = XcodeEntityReader(path: path)
        for element in root.children {
            switch element.name {
            case "entity":
                draft.entities.append(try entityReader.read(element, warnings: &draft.warnings))
            case "fetchRequest":
                if let template = fetchRequest(element, warnings: &draft.warnings) { draft.fetchRequestTemplates.append(template) }
            case "configuration":
                guard let name = element.nonEmptyText("name") else {
                    draft.warnings.append(ModelWarning("a configuration without a name was left out"))
                    continue
                }
                let members = element.children(named: "memberEntity").compactMap { $0.nonEmptyText("name") }
                draft.configurations.append(ModelConfiguration(name: name, entities: members))
            case "composite":
                // Composite attribute types (iOS 17) describe their own fields; their store
                // layout is not known, so the attributes using them stay opaque.
                draft.warnings.append(ModelWarning(property: element.text("name"), "composite type definitions are not supported; attributes of this type are read as opaque Composite values"))
            default:
                continue
            }
        }
        return draft
    }

    private func fetchRequest(_ element: ModelXMLElement, warnings: inout [ModelWarning]) -> FetchRequestTemplate? {
        guard let name = element.nonEmptyText("name"), let entity = element.nonEmptyText("entity") else {
            warnings.append(ModelWarning(property: element.text("name"), "a fetch request without a name or entity was left out"))
            return nil
        }
        return FetchRequestTemplate(name: name, entity: entity, predicate: element.nonEmptyText("predicateString"))
    }
}
