import Foundation

/// Writes binary property lists (`bplist00`) laid out as CoreFoundation lays them out: objects
/// numbered in the order they are first reached (a dictionary's keys, then its values), equal
/// strings, numbers and data written once and shared, integers in the fewest bytes that hold
/// them, and offsets and references as narrow as the table allows.
///
/// Foundation's `PropertyListSerialization` cannot write keyed-archive UIDs (`CF$UID`), which
/// every `NSKeyedArchiver` archive is made of; this writer can (``Value/uid(_:)``). What it
/// writes ``BinaryPropertyList`` reads back.
///
/// ```swift
/// let bytes = BinaryPropertyListWriter.write(.dictionary([("root", .uid(1))]))   // "bplist00…"
/// ```
enum BinaryPropertyListWriter {
    /// A property-list value, with dictionaries in the order their keys are written.
    indirect enum Value: Hashable {
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case string(String)
        case data(Data)
        /// A keyed-archive reference (`CF$UID`).
        case uid(Int)
        case array([Value])
        case dictionary([Entry])
    }

    /// One key and value of a ``Value/dictionary(_:)``.
    struct Entry: Hashable {
        var key: String
        var value: Value
    }

    /// The property list's bytes.
    static func write(_ top: Value) -> Data {
        var table = ObjectTable()
        _ = table.add(top)
        return table.bytes()
    }

    /// The objects of the list, each with the numbers of the objects it refers to.
    private struct ObjectTable {
        enum Object {
            case scalar(Value)
            case array([Int])
            case dictionary(keys: [Int], values: [Int])
        }

        /// What a shared object is found by: reals by their bits, since `-0.0 == 0.0`.
        enum SharedKey: Hashable {
            case value(Value)
            case real(UInt64)
        }

        var objects: [Object] = []
        var shared: [SharedKey: Int] = [:]

        /// Numbers the value (and, after it, what it holds) and returns its number.
        mutating func add(_ value: Value) -> Int {
            switch value {
            case .array(let items):
                let index = reserve()
                objects[index] = .array(items.map { add($0) })
                return index
            case .dictionary(let entries):
                let index = reserve()
                let keys = entries.map { add(.string($0.key)) }
                let values = entries.map { add($0.value) }
                objects[index] = .dictionary(keys: keys, values: values)
                return index
            default:
                let key: SharedKey
                if case .real(let v) = value { key = .real(v.bitPattern) } else { key = .value(value) }
                if let known = shared[key] { return known }
                let index = reserve()
                objects[index] = .scalar(value)
                shared[key] = index
                return index
            }
        }

        private mutating func reserve() -> Int {
            objects.append(.array([]))
            return objects.count - 1
        }

        func bytes() -> Data {
            let referenceSize = BinaryPropertyListWriter.width(of: UInt64(max(objects.count - 1, 0)))
            var out: [UInt8] = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for object in objects {
                offsets.append(out.count)
                switch object {
                case .scalar(let value): BinaryPropertyListWriter.appendScalar(value, to: &out)
                case .array(let items):
                    BinaryPropertyListWriter.appendMarker(0xA0, count: items.count, to: &out)
                    for item in items { BinaryPropertyListWriter.appendBigEndian(UInt64(item), size: referenceSize, to: &out) }
                case .dictionary(let keys, let values):
                    BinaryPropertyListWriter.appendMarker(0xD0, count: keys.count, to: &out)
                    for item in keys + values { BinaryPropertyListWriter.appendBigEndian(UInt64(item), size: referenceSize, to: &out) }
                }
            }
            let tableOffset = out.count
            let offsetSize = BinaryPropertyListWriter.width(of: UInt64(offsets.last ?? 0))
            for offset in offsets { BinaryPropertyListWriter.appendBigEndian(UInt64(offset), size: offsetSize, to: &out) }
            // The trailer: five unused bytes, the sort version, the two sizes, then the object
            // count, the top object and where the offset table starts.
            out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            BinaryPropertyListWriter.appendBigEndian(UInt64(objects.count), size: 8, to: &out)
            BinaryPropertyListWriter.appendBigEndian(0, size: 8, to: &out)
            BinaryPropertyListWriter.appendBigEndian(UInt64(tableOffset), size: 8, to: &out)
            return Data(out)
        }
    }

    private static func appendScalar(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let v): appendInteger(v, to: &out)
        case .real(let v):
            out.append(0x23)
            appendBigEndian(v.bitPattern, size: 8, to: &out)
        case .string(let s):
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: s.utf8.count, to: &out)
                out += s.utf8
            } else {
                let units = Array(s.utf16)
                appendMarker(0x60, count: units.count, to: &out)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &out) }
            }
        case .data(let d):
            appendMarker(0x40, count: d.count, to: &out)
            out += d
        case .uid(let v):
            let size = width(of: UInt64(v))
            out.append(0x80 | UInt8(size - 1))
            appendBigEndian(UInt64(v), size: size, to: &out)
        case .array, .dictionary:
            break  // numbered as objects of their own, never written as scalars
        }
    }

    /// An integer object: 1, 2 or 4 bytes for what fits unsigned, 8 for the rest (negative
    /// numbers always take 8, as CoreFoundation writes them).
    private static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        let size = value < 0 ? 8 : width(of: UInt64(value))
        out.append(0x10 | UInt8(size.trailingZeroBitCount))
        appendBigEndian(UInt64(bitPattern: value), size: size, to: &out)
    }

    /// A marker with its count: in the low nibble up to 14, else `0xF` and an integer object.
    private static func appendMarker(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to out: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func width(of value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}
