/// An object's values at one moment, as Core Data's conflict snapshots hold them: every
/// stored attribute and to-one relationship by name, a to-one as its destination's
/// ``ObjectID``; to-many relationships are not in it, and a property with no value is left
/// out (Core Data's `[String: Any]`, whose `NSNull` GraphStore spells as a missing key).
///
/// ```swift
/// conflict.persistedSnapshot?["title"]?.attributeValue?.stringValue   // "Uno", as stored now
/// conflict.persistedSnapshot?["category"]                              // .objectID(BookCategory/p2)
/// ```
public typealias ObjectSnapshot = [String: FetchedValue]

extension ManagedObjectContext {
    /// The snapshot of `object` as it is now (`committed` false) or as this context last
    /// read or saved it (`committed` true; the same for an object with no unsaved change).
    func snapshot(of object: ManagedObject, committed: Bool) throws -> ObjectSnapshot {
        try object.fireFault()
        let values = committed ? object.snapshot?.values ?? object.values : object.values
        let toOne = committed ? object.snapshot?.toOne ?? object.toOne : object.toOne
        var snapshot: ObjectSnapshot = [:]
        let mapping = object.mapping
        for i in mapping.storedAttributeIndices {
            // A value that cannot be read (a missing external file) is shown as none.
            if let value = (try? object.slotValue(values[i], at: i)) ?? nil { snapshot[mapping.attributeNames[i]] = .attribute(value) }
        }
        for toOneColumn in mapping.toOneColumns {
            if let id = toOne[toOneColumn.index].destinationID { snapshot[mapping.relationships[toOneColumn.index].relationship.name] = .objectID(id) }
        }
        return snapshot
    }

    /// The snapshot of a row as stored.
    func snapshot(of row: StoredRow) throws -> ObjectSnapshot {
        var snapshot: ObjectSnapshot = [:]
        let mapping = row.mapping
        for i in mapping.storedAttributeIndices {
            if let value = (try? row.attributeValue(at: i)) ?? nil { snapshot[mapping.attributeNames[i]] = .attribute(value) }
        }
        for toOneColumn in mapping.toOneColumns {
            guard let key = row.toOne[toOneColumn.index] else { continue }
            snapshot[mapping.relationships[toOneColumn.index].relationship.name] = .objectID(try destinationID(of: mapping, relationship: toOneColumn.index, key: key))
        }
        return snapshot
    }
}
