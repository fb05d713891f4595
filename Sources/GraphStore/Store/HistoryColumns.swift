/// `ZCOLUMNS` of an update in `ACHANGE`: which properties the update touched, as a bitmap.
///
/// Derived from the only corpus store that keeps history (a SwiftData store, 55 changes of
/// three entities with two to four properties each): every update's `ZCOLUMNS` is one byte
/// with one bit per property, the entity's properties (attributes and relationships, to-many
/// ones included) ordered by name, the first at the byte's high bit (`0x80`), the next at
/// `0x40`, and so on. Setting an item's recipe gave `0x80` (`craftingRecipe` before `name`),
/// renaming it `0x40`; a recipe's produced item `0x80`, its count `0x40`, adding a component
/// `0x20` (`requiredComponents`).
///
/// What the corpus does not show is not guessed: an entity with more than eight properties
/// (how many bytes, which order past the first), one with a parent entity (where inherited
/// properties go), transient or fetched properties (whether they take a bit), or names whose
/// order depends on letter case. For such an entity ``order(of:)`` gives the reason instead.
enum HistoryColumns {
    /// The most properties one established byte holds.
    static let establishedPropertyCount = 8

    /// The entity's property names in bitmap order, or why that order is not established.
    static func order(of mapping: EntityMapping) -> Result<[String], Unestablished> {
        let entity = mapping.entity
        if entity.parent != nil || mapping.superNumber != 0 {
            return .failure(Unestablished("\(entity.name) inherits from \(entity.parent ?? "another entity"), and where inherited properties go in ZCOLUMNS is not established"))
        }
        let transient = mapping.attributes.filter(\.attribute.isTransient).map(\.attribute.name)
            + mapping.relationships.filter(\.relationship.isTransient).map(\.relationship.name)
        if !transient.isEmpty {
            return .failure(Unestablished("\(entity.name) has transient properties (\(transient.joined(separator: ", "))), and whether they take a place in ZCOLUMNS is not established"))
        }
        if !entity.fetchedProperties.isEmpty {
            return .failure(Unestablished("\(entity.name) has fetched properties, and whether they take a place in ZCOLUMNS is not established"))
        }
        let names = mapping.attributes.map(\.attribute.name) + mapping.relationships.map(\.relationship.name)
        if names.count > establishedPropertyCount {
            return .failure(Unestablished("\(entity.name) has \(names.count) properties, and ZCOLUMNS is established for at most \(establishedPropertyCount) (one byte)"))
        }
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        if sorted != names.sorted(by: { $0.lowercased() < $1.lowercased() }) {
            return .failure(Unestablished("the order of \(entity.name)'s property names depends on letter case, and which order ZCOLUMNS uses then is not established"))
        }
        return .success(sorted)
    }

    /// The bitmap of `changed` among `order`.
    static func encode(_ changed: [String], order: [String]) -> [UInt8] {
        var byte: UInt8 = 0
        for (index, name) in order.enumerated() where changed.contains(name) {
            byte |= 0x80 >> UInt8(index)
        }
        return [byte]
    }

    /// The names a bitmap marks, or nil when it does not fit `order` (another length, or a
    /// bit past the last property).
    static func decode(_ bytes: [UInt8], order: [String]) -> [String]? {
        guard bytes.count == 1 else { return nil }
        var names: [String] = []
        for bit in 0..<8 where bytes[0] & (0x80 >> UInt8(bit)) != 0 {
            guard bit < order.count else { return nil }
            names.append(order[bit])
        }
        return names
    }

    /// Why an entity's bitmap order is not established.
    struct Unestablished: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
