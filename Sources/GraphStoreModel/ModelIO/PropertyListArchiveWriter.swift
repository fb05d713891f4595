import Foundation

/// Writes a ``PropertyListValue`` as `NSKeyedArchiver` archives it, so that Core Data on
/// Apple's systems (and Foundation's `NSKeyedUnarchiver`) reads what GraphStore stored.
///
/// The shape is the one seen in the archives Apple's archiver wrote (the corpus stores'
/// `Z_MODELCACHE`): `{$version: 100000, $archiver: "NSKeyedArchiver", $top: {root: UID 1},
/// $objects: […]}`, `$objects[0]` the string `$null`; each object numbered when it is first
/// reached, then what it holds, then its class entry (`{$classname, $classes}`, written once
/// per class); strings, numbers and data stored as plain property-list values; `NSDate` as
/// `NS.time`, `NSURL` as `NS.base` and `NS.relative`, `NSUUID` as `NS.uuidbytes`,
/// collections as `NS.objects` (and `NS.keys`). Equal strings and numbers are written once.
///
/// A set's members and a dictionary's entries are written in one order whatever order Swift
/// keeps them in, so equal values give equal bytes (and setting a value equal to the stored
/// one changes nothing).
struct PropertyListArchiveWriter {
    typealias Node = BinaryPropertyListWriter.Value

    /// How deep values may nest; the reader's limit, so that what is written reads back.
    static let depthLimit = PropertyListArchiveReader.depthLimit

    private var objects: [Node] = [.string("$null")]
    private var sharedValues: [Node: Int] = [:]
    private var classEntries: [ArchivedFoundationClass: Int] = [:]

    /// The archive's bytes.
    static func write(_ value: PropertyListValue) throws(TransformerError.Reason) -> Data {
        var writer = PropertyListArchiveWriter()
        let root = try writer.add(value, depth: 0)
        let top: Node = .dictionary([
            .init(key: "$version", value: .integer(100_000)),
            .init(key: "$archiver", value: .string("NSKeyedArchiver")),
            .init(key: "$top", value: .dictionary([.init(key: "root", value: .uid(root))])),
            .init(key: "$objects", value: .array(writer.objects)),
        ])
        return BinaryPropertyListWriter.write(top)
    }

    /// Numbers a value in `$objects` and returns its UID.
    private mutating func add(_ value: PropertyListValue, depth: Int) throws(TransformerError.Reason) -> Int {
        guard depth < PropertyListArchiveWriter.depthLimit else {
            throw .notArchivable("a value nested deeper than \(PropertyListArchiveWriter.depthLimit) levels")
        }
        switch value {
        case .string(let s): return shared(.string(s))
        case .integer(let v): return shared(.integer(v))
        case .double(let v): return shared(.real(v))
        case .bool(let v): return shared(.bool(v))
        case .data(let d): return shared(.data(d))
        case .null: return object(.null, [])
        case .date(let date):
            return object(.date, [.init(key: "NS.time", value: .real(date.timeIntervalSinceReferenceDate))])
        case .uuid(let uuid):
            return object(.uuid, [.init(key: "NS.uuidbytes", value: .data(withUnsafeBytes(of: uuid.uuid) { Data($0) }))])
        case .decimal(let decimal):
            guard let fields = PropertyListArchiveWriter.decimalFields(decimal) else { throw .notArchivable("a decimal NaN") }
            return object(.decimalNumber, fields)
        case .url(let url):
            let index = reserve()
            var base = 0
            if let baseURL = url.baseURL { base = try add(.url(baseURL), depth: depth + 1) }
            let relative = shared(.string(url.relativeString))
            objects[index] = entry([.init(key: "NS.base", value: .uid(base)), .init(key: "NS.relative", value: .uid(relative))], of: .url)
            return index
        case .array(let items):
            return try collection(.array, [("NS.objects", items)], depth: depth)
        case .set(let items):
            return try collection(.set, [("NS.objects", items.sorted(by: PropertyListArchiveWriter.inWrittenOrder))], depth: depth)
        case .dictionary(let entries):
            let sorted = entries.sorted { PropertyListArchiveWriter.inWrittenOrder($0.key, $1.key) }
            return try collection(.dictionary, [("NS.keys", sorted.map(\.key)), ("NS.objects", sorted.map(\.value))], depth: depth)
        }
    }

    /// A collection: numbered first, then its members (each list in turn), then its class.
    private mutating func collection(
        _ foundationClass: ArchivedFoundationClass, _ lists: [(key: String, items: [PropertyListValue])], depth: Int
    ) throws(TransformerError.Reason) -> Int {
        let index = reserve()
        var fields: [BinaryPropertyListWriter.Entry] = []
        for list in lists {
            var references: [Node] = []
            for item in list.items { references.append(.uid(try add(item, depth: depth + 1))) }
            fields.append(.init(key: list.key, value: .array(references)))
        }
        objects[index] = entry(fields, of: foundationClass)
        return index
    }

    /// An object whose fields are all inline values.
    private mutating func object(_ foundationClass: ArchivedFoundationClass, _ fields: [BinaryPropertyListWriter.Entry]) -> Int {
        let index = reserve()
        objects[index] = entry(fields, of: foundationClass)
        return index
    }

    /// The object's fields with its `$class`, whose entry is written the first time a class is used.
    private mutating func entry(_ fields: [BinaryPropertyListWriter.Entry], of foundationClass: ArchivedFoundationClass) -> Node {
        let classIndex: Int
        if let known = classEntries[foundationClass] {
            classIndex = known
        } else {
            classIndex = objects.count
            objects.append(.dictionary([
                .init(key: "$classname", value: .string(foundationClass.rawValue)),
                .init(key: "$classes", value: .array(foundationClass.classes.map { .string($0) })),
            ]))
            classEntries[foundationClass] = classIndex
        }
        return .dictionary(fields + [.init(key: "$class", value: .uid(classIndex))])
    }

    /// A string, number or data, written once however often it is used.
    private mutating func shared(_ node: Node) -> Int {
        // Reals by their bits: -0.0 == 0.0, and NaN equals nothing.
        let key: Node = if case .real(let v) = node { .data(withUnsafeBytes(of: v.bitPattern) { Data($0) } + [0xFF]) } else { node }
        if let known = sharedValues[key] { return known }
        objects.append(node)
        sharedValues[key] = objects.count - 1
        return objects.count - 1
    }

    private mutating func reserve() -> Int {
        objects.append(.string("$null"))
        return objects.count - 1
    }

    /// `NSDecimalNumber`'s fields: the mantissa (the significand's digits as an integer) in
    /// 16 little-endian bytes, eight 16-bit words, its length in words, the exponent and
    /// sign; nil for NaN, which no mantissa holds.
    private static func decimalFields(_ decimal: Decimal) -> [BinaryPropertyListWriter.Entry]? {
        guard !decimal.isNaN else { return nil }
        let digits = decimal.significand.description.filter(\.isNumber).compactMap(\.wholeNumberValue)
        var mantissa = littleEndianBytes(ofDecimalDigits: digits)
        guard mantissa.count <= 16 else { return nil }
        let words = (mantissa.count + 1) / 2
        mantissa += [UInt8](repeating: 0, count: 16 - mantissa.count)
        return [
            .init(key: "NS.exponent", value: .integer(Int64(decimal.isZero ? 0 : decimal.exponent))),
            .init(key: "NS.length", value: .integer(Int64(words))),
            .init(key: "NS.negative", value: .bool(decimal.sign == .minus && !decimal.isZero)),
            .init(key: "NS.compact", value: .bool(true)),
            .init(key: "NS.mantissa.bo", value: .integer(1)),
            .init(key: "NS.mantissa", value: .data(Data(mantissa))),
        ]
    }

    /// The integer that decimal digits (most significant first) spell, as little-endian bytes
    /// without trailing zeros: long division by 256.
    private static func littleEndianBytes(ofDecimalDigits digits: [Int]) -> [UInt8] {
        var number = digits.drop { $0 == 0 }.map { $0 }
        var bytes: [UInt8] = []
        while !number.isEmpty {
            var quotient: [Int] = []
            var remainder = 0
            for digit in number {
                let current = remainder * 10 + digit
                if !quotient.isEmpty || current / 256 > 0 { quotient.append(current / 256) }
                remainder = current % 256
            }
            bytes.append(UInt8(remainder))
            number = quotient
        }
        return bytes
    }

    /// The order a set's members and a dictionary's keys are written in: by class, then by
    /// their text (``PropertyListValue/sortText``).
    static func inWrittenOrder(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        (a.className, a.sortText) < (b.className, b.sortText)
    }
}

extension PropertyListValue {
    /// A text that orders values the same way in every process (a set or dictionary inside
    /// is written in sorted order, unlike Swift's, which varies between runs).
    var sortText: String {
        switch self {
        case .string(let s): s
        case .integer(let v): String(v)
        case .double(let v): String(v.bitPattern)
        case .bool(let v): v ? "1" : "0"
        case .decimal(let v): v.description
        case .date(let v): String(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v): v.base64EncodedString()
        case .url(let v): (v.baseURL?.absoluteString ?? "") + " " + v.relativeString
        case .uuid(let v): v.uuidString
        case .null: ""
        case .array(let items): items.map(\.sortText).joined(separator: "\u{1}")
        case .set(let items): items.map(\.sortText).sorted().joined(separator: "\u{1}")
        case .dictionary(let entries): entries.map { $0.key.sortText + "\u{2}" + $0.value.sortText }.sorted().joined(separator: "\u{1}")
        }
    }
}
