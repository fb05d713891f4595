/// A fixed-length list of one kind of an object's slots (attribute values, to-ones or
/// to-manys), the first four stored inline, the rest in an array.
///
/// Why not an array: every managed object holds three such lists, and an array each cost
/// an allocation, a free and a runtime lookup of the array's generic metadata per object,
/// which was a good part of making an object from a row. Most entities have at most four
/// attributes of a kind, so most objects are now one allocation. Copying a list copies its
/// inline slots (a snapshot is a copy, as with an array).
struct SlotList<Element>: RandomAccessCollection, MutableCollection {
    private var s0: Element
    private var s1: Element
    private var s2: Element
    private var s3: Element
    /// Slots 4 and up (empty, and never allocated, for lists of four or fewer).
    private var overflow: [Element]
    /// The number of slots.
    let count: Int

    /// A list of `count` copies of `value`.
    @inline(__always)
    init(repeating value: Element, count: Int) {
        s0 = value
        s1 = value
        s2 = value
        s3 = value
        overflow = count > 4 ? Array(repeating: value, count: count - 4) : []
        self.count = count
    }

    /// A list holding an array's elements (`filler` pads the unused inline slots).
    init(_ elements: [Element], filler: Element) {
        self.init(repeating: filler, count: elements.count)
        for (i, element) in elements.enumerated() { self[i] = element }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    func index(after i: Int) -> Int { i + 1 }

    @inline(__always)
    func index(before i: Int) -> Int { i - 1 }

    subscript(position: Int) -> Element {
        @inline(__always)
        get {
            precondition(position >= 0 && position < count, "slot index out of range")
            switch position {
            case 0: return s0
            case 1: return s1
            case 2: return s2
            case 3: return s3
            default: return overflow[position &- 4]
            }
        }
        @inline(__always)
        _modify {
            precondition(position >= 0 && position < count, "slot index out of range")
            switch position {
            case 0: yield &s0
            case 1: yield &s1
            case 2: yield &s2
            case 3: yield &s3
            default: yield &overflow[position &- 4]
            }
        }
    }
}

extension SlotList: Equatable where Element: Equatable {
    static func == (a: SlotList, b: SlotList) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }
}

extension SlotList: Sendable where Element: Sendable {}
