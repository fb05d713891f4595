import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of a model's XML: its tag, attributes, child elements and text.
///
/// Xcode's `contents` files hold only elements and attributes (no text, no DOCTYPE); its
/// mapping models (`xcmapping.xml`, Core Data XML stores) add text and a DOCTYPE naming
/// Core Data's DTD. This small tree is all either reader needs. It is built with Foundation's `XMLParser`,
/// which, unlike `XMLDocument`, reports every malformation instead of recovering a partial
/// tree: a truncated file must be an error, not a model with entities missing.
struct ModelXMLElement: Sendable {
    /// The tag (`entity`, `attribute`, ...).
    var name: String
    /// The XML attributes.
    var attributes: [String: String]
    /// The child elements, in document order.
    var children: [ModelXMLElement]
    /// The element's own text (its character data, children's excluded).
    var text: String = ""

    /// Parses a whole document and returns its root element. A DOCTYPE is refused unless
    /// `allowingDoctype` (a mapping model names Core Data's DTD, which is never loaded);
    /// entity declarations always are.
    static func parse(_ data: Data, allowingDoctype: Bool = false) throws(ModelXMLError) -> ModelXMLElement {
        // Xcode model files never have a DOCTYPE; refusing one also keeps entity tricks out.
        if data.range(of: Data("<!ENTITY".utf8)) != nil || (!allowingDoctype && data.range(of: Data("<!DOCTYPE".utf8)) != nil) {
            throw ModelXMLError(line: 0, reason: allowingDoctype
                ? "it declares entities, which Xcode files never do"
                : "it declares a DOCTYPE or entities, which Xcode model files never do")
        }
        // Xcode writes UTF-8. libxml2 hands a name with bytes that are not UTF-8 on as they
        // are, and FoundationXML then traps making a String of it: checked here first.
        if let offset = firstInvalidUTF8(in: data) {
            let line = data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            throw ModelXMLError(line: line, reason: "not UTF-8 (as Xcode writes model files): byte \(offset)")
        }
        // On Linux, FoundationXML is libxml2, whose parser state is not thread-safe:
        // concurrent parses crash. One parse at a time, process-wide.
        xmlParsing.lock()
        defer { xmlParsing.unlock() }
        let parser = XMLParser(data: data)
        let builder = ModelXMLTreeBuilder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let failure = builder.failure { throw failure }
        if !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            let name = XMLParser.ErrorCode(rawValue: code).map { "\($0)" } ?? "error \(code)"
            throw ModelXMLError(line: parser.lineNumber, reason: "not well-formed XML (\(name))")
        }
        guard let root = builder.root, builder.isBalanced else {
            throw ModelXMLError(line: parser.lineNumber, reason: "the document has no complete root element")
        }
        return root
    }

    /// The offset of the first byte that does not belong to well-formed UTF-8, or nil.
    private static func firstInvalidUTF8(in data: Data) -> Int? {
        var decoder = UTF8()
        var iterator = data.makeIterator()
        var offset = 0
        var start = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                start = offset + UTF8.width(scalar)
                offset = start
            case .emptyInput:
                return nil
            case .error:
                return start
            }
        }
    }

    /// The value of an XML attribute, or nil when it is absent.
    func text(_ attribute: String) -> String? {
        attributes[attribute]
    }

    /// The value of an XML attribute, or nil when it is absent or empty.
    func nonEmptyText(_ attribute: String) -> String? {
        guard let value = attributes[attribute], !value.isEmpty else { return nil }
        return value
    }

    /// A Boolean XML attribute. Xcode writes `YES` only when a flag is on, so an absent
    /// attribute is false: a missing `optional` means the property is required.
    func flag(_ attribute: String) -> Bool {
        attributes[attribute].flatMap(DefaultValueParser.boolean) ?? false
    }

    /// The child elements with this tag, in document order.
    func children(named tag: String) -> [ModelXMLElement] {
        children.filter { $0.name == tag }
    }

    /// `<userInfo><entry key=… value=…/></userInfo>` under this element.
    var userInfo: [String: String] {
        var result: [String: String] = [:]
        for info in children(named: "userInfo") {
            for entry in info.children(named: "entry") {
                if let key = entry.text("key") { result[key] = entry.text("value") ?? "" }
            }
        }
        return result
    }
}

/// Serialises XML parsing (see ``ModelXMLElement/parse(_:)``).
private let xmlParsing = NSLock()

/// Why bytes are not a well-formed model XML document.
struct ModelXMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line where the parser gave up (0 when not known).
    var line: Int
    var reason: String

    var description: String { line > 0 ? "\(reason) at line \(line)" : reason }
}

/// Collects `XMLParser` events into ``ModelXMLElement`` values.
private final class ModelXMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [ModelXMLElement] = []
    private(set) var root: ModelXMLElement?
    private(set) var failure: ModelXMLError?
    private var ended = 0

    /// Every element that started has ended, and there was exactly one root.
    var isBalanced: Bool { stack.isEmpty && ended > 0 }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root != nil, stack.isEmpty {
            failure = ModelXMLError(line: parser.lineNumber, reason: "content after the root element")
            parser.abortParsing()
            return
        }
        // Deep nesting never occurs in a model; stop before it can exhaust memory.
        guard stack.count < 256 else {
            failure = ModelXMLError(line: parser.lineNumber, reason: "elements nest deeper than 256 levels")
            parser.abortParsing()
            return
        }
        stack.append(ModelXMLElement(name: elementName, attributes: attributes, children: []))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast(), element.name == elementName else {
            failure = ModelXMLError(line: parser.lineNumber, reason: "</\(elementName)> does not close the open element")
            parser.abortParsing()
            return
        }
        ended += 1
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
