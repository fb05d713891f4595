/// One change inside an undo group, as ``ContextUndoManager/history`` describes it: the
/// object (by its current ID), the key, and the value before and after.
///
/// ```swift
/// for change in undo.history.undoGroups[0].changes { print(change) }
/// // insert Book/t9
/// // Book/t9.title: nil → "The ninth book"
/// // Book/t9.category: nil → BookCategory/p1
/// // BookCategory/p1.books: + Book/t9
/// ```
public enum UndoChange: Sendable, Hashable, CustomStringConvertible {
    /// The object was inserted (or brought back).
    case insert(ObjectID)
    /// The object was deleted (or its insert taken back).
    case delete(ObjectID)
    /// An attribute went from `old` to `new`.
    case attribute(ObjectID, key: String, old: AttributeValue?, new: AttributeValue?)
    /// A to-one relationship went from `old` to `new`.
    case relationship(ObjectID, key: String, old: ObjectID?, new: ObjectID?)
    /// `member` joined a to-many relationship.
    case add(ObjectID, key: String, member: ObjectID)
    /// `member` left a to-many relationship.
    case remove(ObjectID, key: String, member: ObjectID)

    /// The object that changed.
    public var object: ObjectID {
        switch self {
        case .insert(let o), .delete(let o), .attribute(let o, _, _, _), .relationship(let o, _, _, _), .add(let o, _, _), .remove(let o, _, _): o
        }
    }

    /// The attribute or relationship that changed (nil for inserts and deletes).
    public var key: String? {
        switch self {
        case .insert, .delete: nil
        case .attribute(_, let key, _, _), .relationship(_, let key, _, _), .add(_, let key, _), .remove(_, let key, _): key
        }
    }

    /// `Book/t9.title: nil → "The ninth book"`; strings are quoted, missing values are `nil`.
    public var description: String {
        switch self {
        case .insert(let o): "insert \(o)"
        case .delete(let o): "delete \(o)"
        case .attribute(let o, let key, let old, let new): "\(o).\(key): \(Self.text(old)) → \(Self.text(new))"
        case .relationship(let o, let key, let old, let new): "\(o).\(key): \(old.map(\.description) ?? "nil") → \(new.map(\.description) ?? "nil")"
        case .add(let o, let key, let member): "\(o).\(key): + \(member)"
        case .remove(let o, let key, let member): "\(o).\(key): - \(member)"
        }
    }

    /// A value as it reads in a change: strings quoted and escaped, the rest plain.
    public static func text(_ value: AttributeValue?) -> String {
        guard let value else { return "nil" }
        guard case .string(let s) = value else { return value.description }
        var out = "\""
        for c in s {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(c)
            }
        }
        return out + "\""
    }
}
