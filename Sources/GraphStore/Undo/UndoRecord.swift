/// One registered change, small enough to keep hundreds of thousands of: the object, the
/// slot that changed and what it held before (a to-many change keeps only the member that
/// joined or left, never a copy of the set). Values are shared, not copied: an old string
/// or blob is the same storage the object held.
///
/// A record describes a change that happened; reverting it applies the opposite through
/// the context's recorded primitives, which registers the opposite record in turn (so an
/// undo builds the redo group, and a redo the undo group).
enum UndoRecord {
    /// An attribute changed; `old` is its slot before (a value, or a stored value not read).
    case attribute(ManagedObject, index: Int32, old: AttributeSlot)
    /// A to-one relationship changed (one side only; the inverse has its own record).
    case toOne(ManagedObject, index: Int32, old: ManagedObject?)
    /// `member` joined a to-many relationship.
    case joined(ManagedObject, index: Int32, member: ManagedObject)
    /// `member` left a to-many relationship from `position`.
    case left(ManagedObject, index: Int32, member: ManagedObject, position: Int)
    /// The object entered the context (inserted, or brought back).
    case inserted(ManagedObject)
    /// The object left the context (deleted, or an insert taken back).
    case deleted(ManagedObject)

    /// The object whose state the record describes.
    var object: ManagedObject {
        switch self {
        case .attribute(let o, _, _), .toOne(let o, _, _), .joined(let o, _, _), .left(let o, _, _, _), .inserted(let o), .deleted(let o): o
        }
    }

    /// Every object the record holds on to.
    func forEachObject(_ body: (ManagedObject) -> Void) {
        switch self {
        case .attribute(let o, _, _), .inserted(let o), .deleted(let o):
            body(o)
        case .toOne(let o, _, let old):
            body(o)
            if let old { body(old) }
        case .joined(let o, _, let member), .left(let o, _, let member, _):
            body(o)
            body(member)
        }
    }
}
