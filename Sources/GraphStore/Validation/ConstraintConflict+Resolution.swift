/// What the built-in merge policies do to a uniqueness-constraint conflict: collapse it into
/// one object, the survivor (see ``MergePolicy`` for the rules and which of them are Core
/// Data's reported behaviour and which GraphStore's choice).
extension ConstraintConflict {
    /// Collapses the conflict as a built-in policy of `type` (not error) does, through the
    /// context's recorded API, so that the save's restore point and undo manager see it.
    func resolve(by type: MergePolicyType) throws {
        guard let context = (databaseObject ?? conflictingObjects.first)?.managedObjectContext else {
            throw StoreError.unresolvableConflict("the objects of the conflict over \(description) are in no context")
        }
        // An object an earlier conflict (of another constraint) collapsed is gone already.
        var pending = conflictingObjects.filter { $0.managedObjectContext === context && !$0.isDeleted }
        if type == .rollbackMergePolicyType {
            // A stored object's change that took the values is dropped; it keeps its row.
            let stored = pending.filter { !$0.isInserted }
            if !stored.isEmpty { try context.reload(stored) }
            pending.removeAll { !$0.isInserted }
        }
        let database = databaseObject.flatMap { $0.managedObjectContext === context && !$0.isDeleted ? $0 : nil }
        guard let survivor = database ?? pending.first(where: { !$0.isInserted }) ?? pending.first else { return }
        for object in pending where object !== survivor {
            try context.fold(object, into: survivor, taking: Self.keysTaken(from: object, by: type))
        }
    }

    /// The attributes and to-ones whose values the survivor takes from `object`.
    private static func keysTaken(from object: ManagedObject, by type: MergePolicyType) -> Set<String> {
        let mapping = object.mapping
        let all = Set(mapping.attributeNames + mapping.toOneColumns.map { mapping.relationships[$0.index].relationship.name })
        switch type {
        case .overwriteMergePolicyType: return all
        // An insert's every value counts as its change, none included.
        case .mergeByPropertyObjectTrumpMergePolicyType: return object.isInserted ? all : Set(object.changedKeys())
        case .mergeByPropertyStoreTrumpMergePolicyType, .rollbackMergePolicyType, .errorMergePolicyType: return []
        }
    }
}

extension ManagedObjectContext {
    /// Makes `object` one with `survivor`: the survivor takes the values of `keys`, the
    /// members of the object's to-manys move to the survivor, its to-ones are let go, and it
    /// is deleted. A property the survivor's entity lacks, or whose type or destination
    /// does not fit it, is not taken (and a to-many of it is emptied).
    func fold(_ object: ManagedObject, into survivor: ManagedObject, taking keys: Set<String>) throws {
        let from = object.mapping
        let to = survivor.mapping
        for (i, name) in from.attributeNames.enumerated() where keys.contains(name) {
            guard let j = to.attributeIndex(of: name), to.attributeTypes[j] == from.attributeTypes[i] else { continue }
            try survivor.setValue(try object.value(forKey: name), forKey: name)
        }
        for (i, info) in from.relationshipInfo.enumerated() {
            let name = from.relationships[i].relationship.name
            let target = to.relationshipIndex(of: name).flatMap { to.relationshipInfo[$0].isToMany == info.isToMany ? $0 : nil }
            let fits = { (destination: ManagedObject) in target.map { to.relationshipInfo[$0].destinationNumbers.contains(destination.mapping.number) } ?? false }
            if info.isToMany {
                for member in try object.objects(forKey: name) {
                    if fits(member) { try survivor.add(member, toKey: name) }
                    try object.remove(member, fromKey: name)
                }
            } else {
                let destination = try object.object(forKey: name)
                if keys.contains(name), destination.map(fits) ?? (target != nil) { try survivor.setObject(destination, forKey: name) }
                try object.setObject(nil, forKey: name)
            }
        }
        try repointReferrers(of: object, to: survivor)
        try delete(object)
    }

    /// Points at `survivor` the objects in memory that point at `object` through a
    /// relationship without an inverse (which lists nothing on `object`'s side). An unsaved
    /// object can be pointed at by objects in memory only; a stored row pointing at a stored
    /// object that goes is left as a delete leaves it.
    private func repointReferrers(of object: ManagedObject, to survivor: ManagedObject) throws {
        var referrers: [(object: ManagedObject, index: Int)] = []
        let ref = ObjectRef(object)
        let find = { (candidate: ManagedObject) in
            guard candidate !== object, candidate.hasData, !candidate.isDeleted else { return }
            for (i, info) in candidate.mapping.relationshipInfo.enumerated() where info.inverse == nil && info.destinationNumbers.contains(object.mapping.number) {
                let points = info.isToMany ? candidate.members(i).contains(ref) : candidate.toOne[i].object === object
                if points { referrers.append((candidate, i)) }
            }
        }
        // Gathered first: changing an object while the registry is walked is not allowed.
        inserted.values.forEach(find)
        registered.forEach(find)
        for (referrer, i) in referrers {
            let name = referrer.mapping.relationships[i].relationship.name
            let fits = referrer.mapping.relationshipInfo[i].destinationNumbers.contains(survivor.mapping.number)
            if referrer.mapping.relationshipInfo[i].isToMany {
                try referrer.remove(object, fromKey: name)
                if fits { try referrer.add(survivor, toKey: name) }
            } else {
                try referrer.setObject(fits ? survivor : nil, forKey: name)
            }
        }
    }
}
