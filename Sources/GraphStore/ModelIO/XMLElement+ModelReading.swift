import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension XMLElement {
    /// The value of an XML attribute, or nil when it is absent.
    func text(_ name: String) -> String? {
        attribute(forName: name)?.stringValue
    }

    /// The value of an XML attribute, or nil when it is absent or empty.
    func nonEmptyText(_ name: String) -> String? {
        guard let value = text(name), !value.isEmpty else { return nil }
        return value
    }

    /// A Boolean XML attribute. Xcode writes `YES` only when a flag is on, so an absent
    /// attribute is false: a missing `optional` means the property is required.
    func flag(_ name: String) -> Bool {
        text(name).flatMap(DefaultValueParser.boolean) ?? false
    }

    /// The child elements, in document order.
    var childElements: [XMLElement] {
        (children ?? []).compactMap { $0 as? XMLElement }
    }

    /// The child elements with this tag, in document order.
    func childElements(named tag: String) -> [XMLElement] {
        childElements.filter { $0.name == tag }
    }

    /// `<userInfo><entry key=… value=…/></userInfo>` under this element.
    var userInfo: [String: String] {
        var result: [String: String] = [:]
        for info in childElements(named: "userInfo") {
            for entry in info.childElements(named: "entry") {
                if let key = entry.text("key") { result[key] = entry.text("value") ?? "" }
            }
        }
        return result
    }
}
