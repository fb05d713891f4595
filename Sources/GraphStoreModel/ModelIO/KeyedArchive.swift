import Foundation

/// An `NSKeyedArchiver` archive read as a graph of plain values.
///
/// A keyed archive is a property list `{$archiver, $version, $top, $objects}`: every object
/// is an entry of `$objects`, referring to others by index (`CF$UID`), with its class in
/// `$class` (an entry holding `$classname` and `$classes`). This type resolves those
/// references on demand and reads Foundation's own archived classes (strings, numbers,
/// arrays, sets, dictionaries including Core Data's `NSKnownKeysDictionary1`, dates, UUIDs,
/// URLs, data, decimal numbers). Classes it does not know stay visible as
/// ``ArchivedObject`` values for the caller to interpret.
///
/// Reading costs steps from ``budget``: an archived collection's elements when it is read,
/// each value ``plainText(_:depth:)`` writes. Once it is spent, collections read as absent
/// and text as `…`, and the decoder reading the archive refuses it (see ``ArchiveWalkBudget``).
struct KeyedArchive {
    /// The `$objects` table.
    let objects: [ArchiveValue]
    /// The `$top` entries (normally just `root`).
    let top: [String: ArchiveValue]
    /// The steps reading the archive may take, in proportion to its size.
    let budget: ArchiveWalkBudget

    /// Parses a binary (or XML) property list holding a keyed archive.
    init(propertyList data: Data) throws(KeyedArchiveError) {
        let value: ArchiveValue
        if BinaryPropertyList.isBinary(data) {
            // Our own reader: Foundation's can crash on damaged binary property lists.
            do {
                value = try BinaryPropertyList.parse(data)
            } catch {
                throw .notAPropertyList(error.reason)
            }
        } else {
            let decoded: Any
            do {
                decoded = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            } catch {
                throw .notAPropertyList(ModelIOText.shortError(error))
            }
            value = try ArchiveValue(propertyList: decoded)
        }
        guard case .dictionary(let plist) = value else {
            throw .notAnArchive("the top level is not a dictionary")
        }
        if case .string(let archiver)? = plist["$archiver"], archiver != "NSKeyedArchiver" {
            throw .notAnArchive("$archiver is \(archiver), not NSKeyedArchiver")
        }
        guard case .array(let objects)? = plist["$objects"] else { throw .notAnArchive("no $objects table") }
        guard case .dictionary(let top)? = plist["$top"] else { throw .notAnArchive("no $top dictionary") }
        self.objects = objects
        self.top = top
        budget = ArchiveWalkBudget(limit: BinaryPropertyList.expansionLimit(forBytes: data.count))
    }

    /// The root object (`$top.root`).
    var root: ArchivedObject? { top["root"].flatMap { object($0) } }

    // MARK: - References

    /// Follows a reference; other values come back unchanged. `$null` becomes `.null`.
    func resolve(_ value: ArchiveValue) -> ArchiveValue {
        guard case .reference(let index) = value else { return value }
        guard objects.indices.contains(index) else { return .null }
        let target = objects[index]
        if case .string("$null") = target { return .null }
        return target
    }

    /// The archived object a value refers to, with its class name, or nil for anything else.
    func object(_ value: ArchiveValue) -> ArchivedObject? {
        var index: Int?
        if case .reference(let i) = value { index = i }
        guard case .dictionary(let fields) = resolve(value), let classRef = fields["$class"],
            case .dictionary(let classInfo) = resolve(classRef), case .string(let name)? = classInfo["$classname"]
        else { return nil }
        var classes: [String] = []
        if case .array(let names)? = classInfo["$classes"] {
            classes = names.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        return ArchivedObject(index: index, className: name, classes: classes.isEmpty ? [name] : classes, fields: fields)
    }

    // MARK: - Foundation values

    /// A string: a plain property-list string or an archived `NSString`/`NSMutableString`.
    func string(_ value: ArchiveValue?) -> String? {
        guard let value else { return nil }
        switch resolve(value) {
        case .string(let s): return s
        case .dictionary(let fields):
            if case .string(let s)? = fields["NS.string"].map(resolve) { return s }
            if case .data(let bytes)? = fields["NS.bytes"].map(resolve) { return String(data: bytes, encoding: .utf8) }
            return nil
        default: return nil
        }
    }

    /// The elements of an archived array, set or ordered set (`NS.objects`).
    func array(_ value: ArchiveValue?) -> [ArchiveValue]? {
        guard let value else { return nil }
        let items: [ArchiveValue]
        switch resolve(value) {
        case .array(let list): items = list
        case .dictionary(let fields):
            guard case .array(let list)? = fields["NS.objects"] else { return nil }
            items = list
        default: return nil
        }
        return budget.spend(items.count) ? items : nil
    }

    /// The entries of an archived dictionary, in archive order. Understands
    /// `NSDictionary` (`NS.keys`/`NS.objects`) and `NSKnownKeysDictionary1` (keys in
    /// `searchMapping.keys`, values in `values`). Keys that are not strings are skipped.
    func dictionary(_ value: ArchiveValue?) -> [(key: String, value: ArchiveValue)]? {
        guard let value, case .dictionary(let fields) = resolve(value) else { return nil }
        if case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] {
            guard budget.spend(min(keys.count, values.count)) else { return nil }
            return zip(keys, values).compactMap { key, item in string(key).map { ($0, item) } }
        }
        if let values = array(fields["values"]), let mapping = fields["searchMapping"],
            case .dictionary(let strategy) = resolve(mapping), let keys = array(strategy["keys"])
        {
            return zip(keys, values).compactMap { key, item in string(key).map { ($0, item) } }
        }
        return nil
    }

    /// An archived string-to-string dictionary (user info); other values are rendered as text.
    func stringDictionary(_ value: ArchiveValue?) -> [String: String] {
        var result: [String: String] = [:]
        for (key, item) in dictionary(value) ?? [] {
            result[key] = string(item) ?? plainText(item)
        }
        return result
    }

    /// A number (integer, real or Boolean), or an archived `NSDecimalNumber` as a Double.
    func number(_ value: ArchiveValue?) -> Double? {
        guard let value else { return nil }
        let resolved = resolve(value)
        if let number = resolved.double { return number }
        return decimal(resolved).map { NSDecimalNumber(decimal: $0).doubleValue }
    }

    /// An integer; absent values are nil.
    func integer(_ value: ArchiveValue?) -> Int64? {
        value.flatMap { resolve($0).integer }
    }

    /// A Boolean flag; an absent key means false, as archivers omit false flags.
    func flag(_ value: ArchiveValue?) -> Bool {
        value.flatMap { resolve($0).bool } ?? false
    }

    /// An archived `NSDate` (`NS.time`: seconds since 2001) or a property-list date.
    func date(_ value: ArchiveValue?) -> Date? {
        guard let value else { return nil }
        switch resolve(value) {
        case .date(let d): return d
        case .dictionary(let fields):
            return fields["NS.time"].flatMap { resolve($0).double }.map { Date(timeIntervalSinceReferenceDate: $0) }
        default: return nil
        }
    }

    /// An archived `NSUUID` (`NS.uuidbytes`, 16 bytes).
    func uuid(_ value: ArchiveValue?) -> UUID? {
        guard let value, case .dictionary(let fields) = resolve(value),
            case .data(let bytes)? = fields["NS.uuidbytes"].map(resolve), bytes.count == 16
        else { return nil }
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// An archived `NSURL` (`NS.relative` against an optional `NS.base`).
    func url(_ value: ArchiveValue?, depth: Int = 0) -> URL? {
        guard depth < 8, let value, case .dictionary(let fields) = resolve(value), let relative = string(fields["NS.relative"]) else {
            return nil
        }
        let base = url(fields["NS.base"], depth: depth + 1)
        return URL(string: relative, relativeTo: base)?.absoluteURL
    }

    /// Bytes: property-list data or an archived `NSData`/`NSMutableData` (`NS.data`).
    func data(_ value: ArchiveValue?) -> Data? {
        guard let value else { return nil }
        switch resolve(value) {
        case .data(let d): return d
        case .dictionary(let fields):
            if case .data(let d)? = fields["NS.data"].map(resolve) { return d }
            return nil
        default: return nil
        }
    }

    /// An archived `NSDecimalNumber`: `NS.mantissa` (little-endian bytes), `NS.exponent`,
    /// `NS.negative`; or any number, a real as the Decimal of its shortest digits (as a
    /// stored real is read: `3.3333333333`, not `Decimal(Double)`'s `3.333333333299999232`).
    func decimal(_ value: ArchiveValue?) -> Decimal? {
        guard let value else { return nil }
        let resolved = resolve(value)
        if case .integer(let v) = resolved { return Decimal(v) }
        if case .real(let v) = resolved { return AttributeValue.decimal(stored: v) }
        // NSDecimal holds at most eight 16-bit words of mantissa.
        guard case .dictionary(let fields) = resolved, case .data(let mantissa)? = fields["NS.mantissa"].map(resolve),
            mantissa.count <= 16
        else {
            return nil
        }
        var magnitude = Decimal(0)
        for byte in mantissa.reversed() { magnitude = magnitude * 256 + Decimal(Int(byte)) }
        let exponent = Int(integer(fields["NS.exponent"]) ?? 0)
        guard (-128...127).contains(exponent) else { return nil }  // NSDecimal's exponent range
        var result = Decimal(sign: flag(fields["NS.negative"]) ? .minus : .plus, exponent: exponent, significand: magnitude)
        if result.isNaN { result = 0 }
        return result
    }

    /// A short rendering of any value, for messages and user info that is not a string.
    /// Depth-limited, as archived collections can contain themselves.
    func plainText(_ value: ArchiveValue, depth: Int = 0) -> String {
        guard depth < 16, budget.spend() else { return "…" }
        let plainText = { (item: ArchiveValue) in self.plainText(item, depth: depth + 1) }
        switch resolve(value) {
        case .null: return "nil"
        case .bool(let b): return b ? "YES" : "NO"
        case .integer(let v): return String(v)
        case .real(let v): return AttributeValue.format(v)
        case .string(let s): return s
        case .data(let d): return AttributeValue.dataSummary(d)
        case .date(let d): return AttributeValue.iso8601(d)
        case .reference: return "?"
        case .array(let items): return budget.spend(items.count) ? "(" + items.map(plainText).joined(separator: ", ") + ")" : "…"
        case .dictionary:
            if let text = string(value) { return text }
            if let items = array(value) { return "(" + items.map(plainText).joined(separator: ", ") + ")" }
            if let pairs = dictionary(value) { return "{" + pairs.map { "\($0.key) = \(plainText($0.value))" }.joined(separator: "; ") + "}" }
            if let date = date(value) { return AttributeValue.iso8601(date) }
            return object(value).map { "<\($0.className)>" } ?? "?"
        }
    }
}

/// An object of a keyed archive: its class and its encoded fields.
struct ArchivedObject {
    /// Its index in `$objects`, when it was reached through a reference.
    let index: Int?
    /// `$classname`.
    let className: String
    /// `$classes`: the class and its superclasses.
    let classes: [String]
    /// The encoded keys (including `$class`).
    let fields: [String: ArchiveValue]

    subscript(key: String) -> ArchiveValue? { fields[key] }

    /// Whether the object is of this class or a subclass of it.
    func isKind(of name: String) -> Bool { classes.contains(name) }
}
