import Foundation

/// Reads a keyed archive of Foundation's plist classes (what `NSSecureUnarchiveFromData`
/// decodes) into a ``PropertyListValue``, on ``KeyedArchive`` and its walk budget.
///
/// A Transformable value is user input: the bytes may be truncated, damaged or made up.
/// Every reference is checked against the object table, an object that contains itself is
/// refused (`NSArray` holding itself), nesting is bounded, and each value reached spends a
/// step of the archive's ``ArchiveWalkBudget``, so that an archive whose objects share
/// objects level after level (a few hundred bytes standing for 2^60 values) is refused
/// rather than walked. Each object's class must be one the reader knows
/// (``ArchivedFoundationClass``) and one `allowed` names, or a subclass of one: any other is
/// refused by its name, as `NSSecureUnarchiveFromData` refuses it.
struct PropertyListArchiveReader {
    /// How deep decoded values may nest (an array in a dictionary in an array…).
    static let depthLimit = 128

    private let archive: KeyedArchive
    private let allowed: Set<String>
    private var inProgress = Set<Int>()

    /// Reads the root object of `data`.
    static func read(_ data: Data, allowing allowed: Set<String>) throws(TransformerError.Reason) -> PropertyListValue {
        // Keyed archivers write binary property lists; the XML reader is Foundation's, which
        // is not checked against damaged input, so XML is not read.
        guard BinaryPropertyList.isBinary(data) else { throw .unreadableArchive("not a binary property list (no bplist00 header)") }
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(propertyList: data)
        } catch {
            throw .unreadableArchive(error.description)
        }
        guard let root = archive.top["root"] else { throw .unreadableArchive("the archive has no root object ($top.root)") }
        var reader = PropertyListArchiveReader(archive: archive, allowed: allowed)
        return try reader.value(root, depth: 0)
    }

    private init(archive: KeyedArchive, allowed: Set<String>) {
        self.archive = archive
        self.allowed = allowed
    }

    /// The value an archive reference (or an inline value) stands for.
    private mutating func value(_ value: ArchiveValue, depth: Int) throws(TransformerError.Reason) -> PropertyListValue {
        guard depth < PropertyListArchiveReader.depthLimit else {
            throw .unreadableArchive("values nest deeper than \(PropertyListArchiveReader.depthLimit) levels")
        }
        guard archive.budget.spend() else {
            throw .unreadableArchive("the archive stands for more than \(archive.budget.limit) values: it reuses objects that reuse objects")
        }
        guard case .reference(let index) = value else { return try plain(value) }
        guard archive.objects.indices.contains(index) else {
            throw .unreadableArchive("reference \(index) is outside the object table of \(archive.objects.count) objects")
        }
        let target = archive.objects[index]
        if case .string("$null") = target { return .null }
        guard case .dictionary(let fields) = target else { return try plain(target) }
        guard inProgress.insert(index).inserted else { throw .unreadableArchive("object \(index) contains itself") }
        defer { inProgress.remove(index) }
        return try object(fields, at: index, depth: depth)
    }

    /// A value the archive holds as a property-list value of its own: strings, numbers and data.
    private func plain(_ value: ArchiveValue) throws(TransformerError.Reason) -> PropertyListValue {
        let result: PropertyListValue
        let foundationClass: ArchivedFoundationClass
        switch value {
        case .string(let s): (result, foundationClass) = (.string(s), .string)
        case .integer(let v): (result, foundationClass) = (.integer(v), .number)
        case .real(let v): (result, foundationClass) = (.double(v), .number)
        case .bool(let v): (result, foundationClass) = (.bool(v), .number)
        case .data(let d): (result, foundationClass) = (.data(d), .data)
        case .date(let d): (result, foundationClass) = (.date(d), .date)
        case .null: return .null
        case .reference, .array, .dictionary: throw .unreadableArchive("a value stands where an object reference belongs")
        }
        try check(foundationClass)
        return result
    }

    /// An archived object (`{$class: …, NS.objects: …}`), read by its class.
    private mutating func object(_ fields: [String: ArchiveValue], at index: Int, depth: Int) throws(TransformerError.Reason) -> PropertyListValue {
        guard let object = archive.object(.reference(index)) else { throw .unreadableArchive("object \(index) names no class") }
        guard let foundationClass = ArchivedFoundationClass(rawValue: object.className) else { throw .classNotAllowed(object.className) }
        try check(foundationClass)
        let malformed = { (what: String) in TransformerError.Reason.unreadableArchive("\(object.className) object \(index): \(what)") }
        switch foundationClass {
        case .string, .mutableString:
            guard let text = archive.string(.reference(index)) else { throw malformed("no NS.string") }
            return .string(text)
        case .number:
            throw malformed("NSNumber is archived as a plain number, not an object")
        case .decimalNumber:
            guard let decimal = archive.decimal(.reference(index)) else { throw malformed("no readable NS.mantissa and NS.exponent") }
            return .decimal(decimal)
        case .date:
            guard let date = archive.date(.reference(index)) else { throw malformed("no NS.time") }
            return .date(date)
        case .data, .mutableData:
            guard let bytes = archive.data(.reference(index)) else { throw malformed("no NS.data") }
            return .data(bytes)
        case .uuid:
            guard let uuid = archive.uuid(.reference(index)) else { throw malformed("NS.uuidbytes is not 16 bytes") }
            return .uuid(uuid)
        case .null:
            return .null
        case .url:
            return try url(fields, depth: depth, malformed: malformed)
        case .array, .mutableArray:
            return .array(try elements(fields["NS.objects"], depth: depth, malformed: malformed))
        case .set, .mutableSet:
            return .set(Set(try elements(fields["NS.objects"], depth: depth, malformed: malformed)))
        case .dictionary, .mutableDictionary:
            let keys = try elements(fields["NS.keys"], depth: depth, malformed: malformed)
            let values = try elements(fields["NS.objects"], depth: depth, malformed: malformed)
            guard keys.count == values.count else { throw malformed("\(keys.count) keys for \(values.count) values") }
            return .dictionary(Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last }))
        }
    }

    /// `NS.relative`, read against `NS.base` when there is one (an archived `NSURL` or `$null`).
    private mutating func url(
        _ fields: [String: ArchiveValue], depth: Int, malformed: (String) -> TransformerError.Reason
    ) throws(TransformerError.Reason) -> PropertyListValue {
        guard let relative = archive.string(fields["NS.relative"]) else { throw malformed("no NS.relative string") }
        var base: URL?
        if let baseField = fields["NS.base"] {
            switch try value(baseField, depth: depth + 1) {
            case .null: base = nil
            case .url(let url): base = url
            default: throw malformed("NS.base is not a URL")
            }
        }
        guard let url = URL(string: relative, relativeTo: base) else { throw malformed("NS.relative is not a URL: \(relative)") }
        return .url(url)
    }

    /// The members a collection's field refers to, each read in turn.
    private mutating func elements(
        _ field: ArchiveValue?, depth: Int, malformed: (String) -> TransformerError.Reason
    ) throws(TransformerError.Reason) -> [PropertyListValue] {
        guard let field else { return [] }
        guard case .array(let references) = archive.resolve(field) else { throw malformed("its members are not a list") }
        var items: [PropertyListValue] = []
        items.reserveCapacity(min(references.count, 1024))
        for reference in references { items.append(try value(reference, depth: depth + 1)) }
        return items
    }

    private func check(_ foundationClass: ArchivedFoundationClass) throws(TransformerError.Reason) {
        guard foundationClass.isAllowed(by: allowed) else { throw .classNotAllowed(foundationClass.rawValue) }
    }
}
