import Foundation
@testable import GraphStore
@testable import GraphStoreModel

/// Builds `NSKeyedArchiver` archives by hand, object by object, the way Core Data's own
/// archives are laid out (`$objects`, `$top`, `CF$UID` references, `$class` entries).
///
/// References are written as `{"CF$UID": n}` dictionaries in an XML property list, which
/// Foundation turns into real UIDs when it parses it; the result is re-encoded as a binary
/// property list, as Core Data writes it.
final class ArchiveBuilder {
    typealias Ref = [String: Int]

    private(set) var objects: [Any] = ["$null"]
    private var classRefs: [String: Ref] = [:]

    /// The `$null` reference.
    let null: Ref = ["CF$UID": 0]

    /// Appends any property-list value and returns its reference.
    @discardableResult
    func add(_ value: Any) -> Ref {
        objects.append(value)
        return ["CF$UID": objects.count - 1]
    }

    /// Reserves a slot, for objects that refer to each other (entity ⇄ property).
    func reserve() -> Ref { add("$null") }

    /// Fills a reserved slot with an object of a class.
    func fill(_ ref: Ref, _ className: String, supers: [String] = [], _ fields: [String: Any]) {
        guard let index = ref["CF$UID"] else { return }
        var fields = fields
        fields["$class"] = classRef(className, supers)
        objects[index] = fields
    }

    /// Appends an object of a class with these encoded fields.
    @discardableResult
    func object(_ className: String, supers: [String] = [], _ fields: [String: Any]) -> Ref {
        let ref = reserve()
        fill(ref, className, supers: supers, fields)
        return ref
    }

    func string(_ text: String) -> Ref { add(text) }

    func array(_ items: [Ref], className: String = "NSArray") -> Ref {
        object(className, ["NS.objects": items])
    }

    func dictionary(_ entries: [(String, Ref)], className: String = "NSDictionary") -> Ref {
        object(className, ["NS.keys": entries.map { string($0.0) }, "NS.objects": entries.map(\.1)])
    }

    /// Core Data's `NSKnownKeysDictionary1`: keys in a mapping strategy, values alongside.
    func knownKeysDictionary(_ entries: [(String, Ref)]) -> Ref {
        let keys = array(entries.map { string($0.0) })
        let mapping = object("NSKnownKeysMappingStrategy1", ["keys": keys, "length": entries.count, "version": 1])
        return object(
            "NSKnownKeysDictionary1", supers: ["NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary"],
            ["values": array(entries.map(\.1)), "searchMapping": mapping, "emptyToken": string("__empty_slot_token__"), "version": 1])
    }

    /// The archive as a binary property list with `root` as its top object.
    func encoded(root: Ref) throws -> Data {
        let plist: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": root], "$objects": objects]
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        let parsed = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        return try PropertyListSerialization.data(fromPropertyList: parsed, format: .binary, options: 0)
    }

    /// The archive deflated as `Z_MODELCACHE` holds it.
    func compressed(root: Ref) throws -> Data {
        try RawDeflate.compress(try encoded(root: root))
    }

    private func classRef(_ name: String, _ supers: [String]) -> Ref {
        if let ref = classRefs[name] { return ref }
        let ref = add(["$classname": name, "$classes": [name] + supers + ["NSObject"]])
        classRefs[name] = ref
        return ref
    }
}
