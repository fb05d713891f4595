/// What changed in an object and what it held before: Core Data's `changedValues()` and
/// `committedValues(forKeys:)`, for `willSave` logic and audit trails.
extension ManagedObject {
    /// The properties changed since the object was last fetched or saved, with their new
    /// values. For an inserted object, every property it has a value for (defaults
    /// included), as Core Data's: a `willSave` that acts on changes sees an insert's values.
    ///
    /// ```swift
    /// override func willSave() {
    ///     if changedValues()["moods"] != nil { try? setPrimitiveValue(.integer(Int64(moodCount)), forKey: "numberOfMoods") }
    /// }
    /// ```
    public func changedValues() throws -> [String: PropertyValue] {
        var changed: [String: PropertyValue] = [:]
        for key in changedKeys() { changed[key] = try currentValue(forKey: key) }
        return changed
    }

    /// The values the object had when last fetched or saved, for `keys` (every property
    /// when nil): the stored state, whatever unsaved changes were made since. Empty for an
    /// object never saved, as Core Data's.
    ///
    /// ```swift
    /// try book.set("price", 12.0)
    /// try book.committedValues(forKeys: ["price"])["price"]   // .attribute(.double(9.5)), the saved price
    /// ```
    public func committedValues(forKeys keys: [String]? = nil) throws -> [String: PropertyValue] {
        guard !isInserted else { return [:] }
        try fireFault()
        var committed: [String: PropertyValue] = [:]
        for key in keys ?? allPropertyNames {
            if mapping.attributeIndex(of: key) != nil {
                committed[key] = .attribute(try committedValue(forKey: key))
            } else if let index = mapping.relationshipIndex(of: key) {
                committed[key] = try committedValue(ofRelationship: index)
            } else {
                // A fetched property has no stored state either.
                throw notStoredPropertyError(key, writing: false)
            }
        }
        return committed
    }

    /// The attributes and to-ones changed since the context's last objects-did-change
    /// (``ManagedObjectContext/processPendingChanges()``), with their new values: Core Data's
    /// `changedValuesForCurrentEvent()`, for observers that react to one event's changes.
    /// For an object inserted in this event, its values, as ``changedValues()`` gives them;
    /// to-manys are not compared (their changes show on the members' to-ones).
    public func changedValuesForCurrentEvent() throws -> [String: PropertyValue] {
        guard let context = managedObjectContext, eventStamp & ~ManagedObjectContext.insertedInEvent == context.eventNumber else { return [:] }
        let before: (values: ValueSlots, toOne: ToOneSlots)
        if let kept = context.pendingEvent.before[ObjectIdentifier(self)] {
            before = kept
        } else if let snapshot, !isInserted {
            before = (snapshot.values, snapshot.toOne)      // first changed in this event
        } else {
            return try changedValues()                       // inserted in this event
        }
        var changed: [String: PropertyValue] = [:]
        for key in keysChanged(from: before.values, before.toOne, toManyChanged: { _ in false }) { changed[key] = try currentValue(forKey: key) }
        return changed
    }

    /// Every attribute and relationship name, in model order.
    private var allPropertyNames: [String] {
        mapping.attributeNames + mapping.relationships.map(\.relationship.name)
    }

    private func currentValue(forKey key: String) throws -> PropertyValue {
        if let index = mapping.attributeIndex(of: key) { return .attribute(try attributeValue(at: index)) }
        guard let index = mapping.relationshipIndex(of: key) else { throw StoreError.unknownKey(entity: entity.name, key: key) }
        return try currentValue(ofRelationship: index)
    }

    private func currentValue(ofRelationship index: Int) throws -> PropertyValue {
        mapping.relationshipInfo[index].isToMany
            ? .toMany(try loadedToMany(index).map(\.object))
            : .toOne(try destination(at: index))
    }

    private func committedValue(ofRelationship index: Int) throws -> PropertyValue {
        guard let snapshot else { return try currentValue(ofRelationship: index) }
        if mapping.relationshipInfo[index].isToMany {
            // A to-many's committed members are kept from its first change on.
            guard let kept = snapshot.toMany[index] else { return try currentValue(ofRelationship: index) }
            var members = kept ?? ToManySet()
            return .toMany(members.settled().map(\.object))
        }
        let slot = snapshot.toOne[index]
        if let object = slot.object { return .toOne(object) }
        guard let id = slot.id, let context = managedObjectContext else { return .toOne(nil) }
        return .toOne(try context.object(for: id))
    }
}
