import Foundation

/// A reader for binary property lists (`bplist00`), the format of `Z_METADATA.Z_PLIST` and
/// of the keyed archive inside `Z_MODELCACHE`.
///
/// Foundation's reader on Linux can crash on damaged input (a flipped byte in a store is
/// enough), and a damaged store must get an error, not a crash: so this reader checks
/// every offset, count and reference against the data it has, refuses cycles and deep
/// nesting, and returns plain ``ArchiveValue``s (UIDs as ``ArchiveValue/reference(_:)``).
///
/// An object referred to many times is decoded once and its value shared, as Core Data's
/// own decoder shares objects, so decoding costs time and memory in proportion to the
/// data. What the value stands for written out in full is bounded too
/// (``expansionLimit(forBytes:)``): arrays that reuse their children level after level
/// (300 bytes can stand for 2^60 values) are refused, so that nothing reading the value
/// afterwards walks more than a few values per byte of input.
///
/// ```swift
/// let value = try BinaryPropertyList.parse(blob)    // .dictionary(["NSStoreType": .string("SQLite"), …])
/// ```
package enum BinaryPropertyList {
    /// Why the bytes are not a readable binary property list.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        var reason: String
        package var description: String { "not a readable binary property list: \(reason)" }
    }

    /// Whether the data starts like a binary property list.
    package static func isBinary(_ data: Data) -> Bool { data.starts(with: Array("bplist0".utf8)) }

    /// Parses the whole property list.
    package static func parse(_ data: Data) throws(Failure) -> ArchiveValue {
        try parseCountingObjects(data).value
    }

    /// Parses the whole property list; also says how many objects were decoded, which is
    /// at most the number the data holds, however often they are referred to.
    static func parseCountingObjects(_ data: Data) throws(Failure) -> (value: ArchiveValue, decodedObjects: Int) {
        var reader = try Reader(Array(data))
        let value = try reader.object(reader.top, depth: 0).value
        return (value, reader.decoded.count)
    }

    /// How many values a property list of `count` bytes may stand for, written out in full.
    /// Property lists written by Foundation share strings, numbers and data but never an
    /// array or a dictionary, so theirs is at most one value per byte.
    static func expansionLimit(forBytes count: Int) -> Int { 4096 + 8 * count }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let top: Int
        let offsetTable: Int
        var inProgress = Set<Int>()
        /// Each object's value and how many values it stands for written out in full, once decoded.
        var decoded: [Int: (value: ArchiveValue, expanded: Int)] = [:]
        let expansionLimit: Int

        init(_ bytes: [UInt8]) throws(Failure) {
            guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
                throw Failure(reason: "no bplist header")
            }
            self.bytes = bytes
            let trailer = bytes.count - 32
            offsetSize = Int(bytes[trailer + 6])
            referenceSize = Int(bytes[trailer + 7])
            let count = Reader.bigEndian(bytes, at: trailer + 8, size: 8)
            let topIndex = Reader.bigEndian(bytes, at: trailer + 16, size: 8)
            let table = Reader.bigEndian(bytes, at: trailer + 24, size: 8)
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
                throw Failure(reason: "offset or reference size out of range")
            }
            guard count > 0, count < UInt64(bytes.count), topIndex < count else { throw Failure(reason: "bad object count") }
            guard table >= 8, table < UInt64(trailer), UInt64(trailer) - table >= count * UInt64(offsetSize) else {
                throw Failure(reason: "the offset table does not fit")
            }
            objectCount = Int(count)
            top = Int(topIndex)
            offsetTable = Int(table)
            expansionLimit = BinaryPropertyList.expansionLimit(forBytes: bytes.count)
        }

        static func bigEndian(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64 {
            var value: UInt64 = 0
            for i in 0..<size { value = value << 8 | UInt64(bytes[start + i]) }
            return value
        }

        func offset(of index: Int) throws(Failure) -> Int {
            guard index >= 0, index < objectCount else { throw Failure(reason: "reference \(index) out of range") }
            let offset = Reader.bigEndian(bytes, at: offsetTable + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < UInt64(offsetTable) else { throw Failure(reason: "object \(index) lies outside the data") }
            return Int(offset)
        }

        func need(_ start: Int, _ count: Int) throws(Failure) {
            guard count >= 0, start >= 0, start <= offsetTable, count <= offsetTable - start else {
                throw Failure(reason: "an object runs past the end of the data")
            }
        }

        /// The length stored in a marker's low nibble, or in the integer object after it.
        func length(marker: UInt8, at position: Int) throws(Failure) -> (count: Int, start: Int) {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return (nibble, position + 1) }
            try need(position + 1, 1)
            let intMarker = bytes[position + 1]
            guard intMarker & 0xF0 == 0x10 else { throw Failure(reason: "a length is not an integer") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw Failure(reason: "a length is too large") }
            try need(position + 2, size)
            let value = Reader.bigEndian(bytes, at: position + 2, size: size)
            guard value < UInt64(bytes.count) else { throw Failure(reason: "a length is larger than the data") }
            return (Int(value), position + 2 + size)
        }

        func references(count: Int, at start: Int) throws(Failure) -> [Int] {
            let (total, overflow) = count.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { throw Failure(reason: "too many references") }
            try need(start, total)
            return (0..<count).map { Int(Reader.bigEndian(bytes, at: start + $0 * referenceSize, size: referenceSize)) }
        }

        /// The object at `index`, decoded the first time it is reached and shared after.
        mutating func object(_ index: Int, depth: Int) throws(Failure) -> (value: ArchiveValue, expanded: Int) {
            if let known = decoded[index] { return known }
            guard depth < 512 else { throw Failure(reason: "nesting deeper than 512 levels") }
            guard inProgress.insert(index).inserted else { throw Failure(reason: "object \(index) contains itself") }
            defer { inProgress.remove(index) }
            var expanded = 1
            let value = try decode(index, depth: depth, expanded: &expanded)
            decoded[index] = (value, expanded)
            return (value, expanded)
        }

        /// Counts a child's values into its container's, refusing a total past the limit.
        func add(_ child: Int, to expanded: inout Int, in index: Int) throws(Failure) {
            expanded += child
            guard expanded <= expansionLimit else {
                throw Failure(reason: "object \(index) stands for more than \(expansionLimit) values: it reuses objects that reuse objects")
            }
        }

        mutating func decode(_ index: Int, depth: Int, expanded: inout Int) throws(Failure) -> ArchiveValue {
            let position = try offset(of: index)
            let marker = bytes[position]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw Failure(reason: String(format: "unknown marker 0x%02x", marker))
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                guard size <= 16 else { throw Failure(reason: "integer too wide") }
                try need(position + 1, size)
                // 16-byte integers carry the value in their low 8 bytes.
                let value = Reader.bigEndian(bytes, at: position + 1 + max(0, size - 8), size: min(size, 8))
                return .integer(size >= 8 ? Int64(bitPattern: value) : Int64(value))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                try need(position + 1, size)
                switch size {
                case 4: return .real(Double(Float(bitPattern: UInt32(Reader.bigEndian(bytes, at: position + 1, size: 4)))))
                case 8: return .real(Double(bitPattern: Reader.bigEndian(bytes, at: position + 1, size: 8)))
                default: throw Failure(reason: "real of \(size) bytes")
                }
            case 0x3:
                try need(position + 1, 8)
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: Reader.bigEndian(bytes, at: position + 1, size: 8))))
            case 0x4:
                let (count, start) = try length(marker: marker, at: position)
                try need(start, count)
                return .data(Data(bytes[start..<start + count]))
            case 0x5:
                let (count, start) = try length(marker: marker, at: position)
                try need(start, count)
                return .string(String(decoding: bytes[start..<start + count], as: UTF8.self))
            case 0x6:
                let (count, start) = try length(marker: marker, at: position)
                let (size, overflow) = count.multipliedReportingOverflow(by: 2)
                guard !overflow else { throw Failure(reason: "string too long") }
                try need(start, size)
                let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                try need(position + 1, size)
                let value = Reader.bigEndian(bytes, at: position + 1, size: min(size, 8))
                guard value < UInt64(Int32.max) else { throw Failure(reason: "UID out of range") }
                return .reference(Int(value))
            case 0xA, 0xC:
                let (count, start) = try length(marker: marker, at: position)
                var items: [ArchiveValue] = []
                for reference in try references(count: count, at: start) {
                    let item = try object(reference, depth: depth + 1)
                    try add(item.expanded, to: &expanded, in: index)
                    items.append(item.value)
                }
                return .array(items)
            case 0xD:
                let (count, start) = try length(marker: marker, at: position)
                let keys = try references(count: count, at: start)
                let values = try references(count: count, at: start + count * referenceSize)
                var fields: [String: ArchiveValue] = [:]
                for (key, value) in zip(keys, values) {
                    guard case .string(let name) = try object(key, depth: depth + 1).value else {
                        throw Failure(reason: "a dictionary key is not a string")
                    }
                    let item = try object(value, depth: depth + 1)
                    try add(item.expanded + 1, to: &expanded, in: index)
                    fields[name] = item.value
                }
                return .dictionary(fields)
            default:
                throw Failure(reason: String(format: "unknown marker 0x%02x", marker))
            }
        }
    }
}

extension ArchiveValue {
    /// The value as Foundation property-list objects (String, NSNumber, Data, Date, arrays,
    /// dictionaries), for metadata dictionaries that callers read with `as?` casts.
    package var foundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return NSNumber(value: b)
        case .integer(let i): return NSNumber(value: i)
        case .real(let d): return NSNumber(value: d)
        case .string(let s): return s
        case .data(let d): return d
        case .date(let d): return d
        case .reference(let i): return NSNumber(value: i)
        case .array(let items): return items.map(\.foundationValue)
        case .dictionary(let fields): return fields.mapValues(\.foundationValue)
        }
    }
}
