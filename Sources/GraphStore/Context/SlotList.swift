/// A fixed-length list of one kind of an object's slots (attribute values, to-ones or
/// to-manys), the first `inlineCount` stored inline in the object, the rest in an array.
///
/// Why not an array: every managed object holds three such lists, and an array each cost
/// an allocation, a free and a runtime lookup of the array's generic metadata per object,
/// which was a good part of making an object from a row. Most entities have a few
/// attributes and one or two relationships, so most objects are now one allocation.
/// Copying a list copies its inline slots (a snapshot is a copy, as with an array).
struct SlotList<let inlineCount: Int, Element>: RandomAccessCollection, MutableCollection {
    private var inline: InlineArray<inlineCount, Element>
    /// Slots `inlineCount` and up (empty, and never allocated, for short lists).
    private var overflow: [Element]
    /// The number of slots.
    let count: Int

    /// A list of `count` copies of `value`.
    @inline(__always)
    init(repeating value: Element, count: Int) {
        inline = InlineArray(repeating: value)
        overflow = count > inlineCount ? Array(repeating: value, count: count - inlineCount) : []
        self.count = count
    }

    /// A list holding an array's elements (`filler` pads the unused inline slots).
    init(_ elements: [Element], filler: Element) {
        self.init(repeating: filler, count: elements.count)
        for (i, element) in elements.enumerated() { self[i] = element }
    }

    // Integer indices: the standard library supplies index(after:) and index(before:).
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        @inline(__always)
        get {
            precondition(position >= 0 && position < count, "slot index out of range")
            return position < inlineCount ? inline[unchecked: position] : overflow[position &- inlineCount]
        }
        // A plain setter as well: an assignment then stores in place, where the coroutine
        // of `_modify` was an out-of-line call (twice) for every value set or read into
        // an object.
        @inline(__always)
        set {
            precondition(position >= 0 && position < count, "slot index out of range")
            if position < inlineCount {
                inline[unchecked: position] = newValue
            } else {
                overflow[position &- inlineCount] = newValue
            }
        }
        @inline(__always)
        _modify {
            precondition(position >= 0 && position < count, "slot index out of range")
            if position < inlineCount {
                yield &inline[unchecked: position]
            } else {
                yield &overflow[position &- inlineCount]
            }
        }
    }
}

extension SlotList: Equatable where Element: Equatable {
    static func == (a: SlotList, b: SlotList) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }
}

extension SlotList: @unchecked Sendable where Element: Sendable {}

/// An object's attribute values (or deferred stored values, see ``AttributeSlot``): four inline.
typealias ValueSlots = SlotList<4, AttributeSlot>
/// An object's to-one relationships: two inline.
typealias ToOneSlots = SlotList<2, ToOneSlot>
/// An object's to-many relationships: allocated when the first one is loaded or set.
typealias ToManySlots = LazySlotList<ToManySet>
