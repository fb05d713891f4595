import OrderedCollections

/// The save pipeline: hooks, validation, then every insert, update, delete and join-table
/// change in one SQLite transaction. In memory nothing changes until the transaction has
/// committed, so a failed save leaves the context exactly as it was.
extension ManagedObjectContext {
    /// Saves every change in one transaction.
    public func save() throws {
        guard hasChanges else { return }
        guard !store.isReadOnly else { throw StoreError.readOnly(path: store.path) }
        for object in Array(inserted.values) + Array(updated.values) + Array(deleted.values) {
            object.willSave()
        }
        try validatePendingChanges()
        markReorderedMembers()
        let records = store.records
        var newKeys: [ObjectIdentifier: Int64] = [:]
        do {
            try store.transaction {
                newKeys = try allocateKeys()
                for object in inserted.values {
                    try store.insertRow(object.mapping, primaryKey: newKeys[ObjectIdentifier(object)] ?? 0, values: rowValues(object, newKeys))
                }
                for object in updated.values {
                    try store.updateRow(object.mapping, primaryKey: object.objectID.primaryKey ?? 0, version: object.version, values: rowValues(object, newKeys))
                }
                for object in deleted.values {
                    try deleteJoinRows(object)
                    try store.deleteRow(object.mapping, primaryKey: object.objectID.primaryKey ?? 0, version: object.version)
                }
                for object in Array(inserted.values) + Array(updated.values) {
                    try writeJoinRows(object, newKeys)
                }
            }
        } catch {
            store.records = records
            throw error
        }
        commit(newKeys)
    }

    /// Checks run before writing; validation rules plug in here.
    func validatePendingChanges() throws {
        try validateForSave()
    }

    /// Members of an ordered to-many whose inverse is a to-one carry their position in a
    /// `Z_FOK_` column of their own row, so a reordered relationship updates its members.
    private func markReorderedMembers() {
        for object in Array(inserted.values) + Array(updated.values) {
            for index in object.dirtyRelationships {
                guard case .inverseForeignKey(_, _, _, .some) = object.mapping.relationships[index].storage else { continue }
                for id in object.toMany[index] ?? [] {
                    guard let member = registered[id], member.lifecycle == .registered else { continue }
                    try? member.fireFault()
                    member.takeSnapshotIfNeeded()
                    updated[ObjectIdentifier(member)] = member
                }
            }
        }
    }

    private func allocateKeys() throws -> [ObjectIdentifier: Int64] {
        var byRoot: [String: [ManagedObject]] = [:]
        for object in inserted.values { byRoot[object.mapping.rootName, default: []].append(object) }
        var keys: [ObjectIdentifier: Int64] = [:]
        for (rootName, objects) in byRoot.sorted(by: { $0.key < $1.key }) {
            let range = try store.allocatePrimaryKeys(root: store.mapping(for: rootName), count: objects.count)
            for (object, key) in zip(objects, range) { keys[ObjectIdentifier(object)] = key }
        }
        return keys
    }

    private func key(of id: ObjectID, _ newKeys: [ObjectIdentifier: Int64]) -> Int64? {
        if let key = id.primaryKey { return key }
        return registered[id].flatMap { newKeys[ObjectIdentifier($0)] }
    }

    /// The row of an object, in ``EntityMapping/rowColumns`` order.
    private func rowValues(_ object: ManagedObject, _ newKeys: [ObjectIdentifier: Int64]) -> [SQLiteValue] {
        var row: [SQLiteValue] = []
        row.reserveCapacity(object.mapping.rowColumns.count)
        for (i, a) in object.mapping.attributes.enumerated() where a.column != nil {
            row.append(RowCodec.encode(object.values[i], as: a.attribute.type))
        }
        for (i, r) in object.mapping.relationships.enumerated() {
            guard case .foreignKey(_, let entityColumn, let orderColumn) = r.storage else { continue }
            let destination = object.toOne[i]
            row.append(destination.flatMap { key(of: $0, newKeys) }.map(SQLiteValue.integer) ?? .null)
            if entityColumn != nil {
                row.append(destination.map { .integer(Int64($0.mapping.number)) } ?? .null)
            }
            if orderColumn != nil {
                row.append(order(of: object, in: r, destination: destination, stored: object.toOneOrder[i]))
            }
        }
        return row
    }

    /// The `Z_FOK_` value of an object in its to-one destination's ordered inverse.
    private func order(of object: ManagedObject, in relationship: RelationshipMapping, destination: ObjectID?, stored: Int64?) -> SQLiteValue {
        guard let destination else { return .null }
        if let owner = registered[destination], let inverse = relationship.relationship.inverse,
            let index = owner.mapping.relationshipIndex(of: inverse), let members = owner.toMany[index],
            let position = members.firstIndex(of: object.objectID)
        {
            return .integer(PersistentStore.orderValue(at: position))
        }
        return stored.map(SQLiteValue.integer) ?? .null
    }

    private func writeJoinRows(_ object: ManagedObject, _ newKeys: [ObjectIdentifier: Int64]) throws {
        guard let source = key(of: object.objectID, newKeys) else { return }
        for index in object.dirtyRelationships.sorted() {
            guard case .joinTable(let join) = object.mapping.relationships[index].storage,
                let members = object.toMany[index]
            else { continue }
            let inverseName = object.mapping.relationships[index].relationship.inverse
            var keys: [Int64] = []
            var inverseOrders: [Int64?] = []
            for id in members {
                guard let member = key(of: id, newKeys) else { continue }
                keys.append(member)
                var inverseOrder: Int64?
                if join.inverseOrderColumn != nil, let other = registered[id], let inverseName,
                    let i = other.mapping.relationshipIndex(of: inverseName), let position = other.toMany[i]?.firstIndex(of: object.objectID)
                {
                    inverseOrder = PersistentStore.orderValue(at: position)
                }
                inverseOrders.append(inverseOrder)
            }
            try store.replaceJoinRows(join, source: source, members: keys, inverseOrders: inverseOrders)
        }
    }

    private func deleteJoinRows(_ object: ManagedObject) throws {
        guard let key = object.objectID.primaryKey else { return }
        for r in object.mapping.relationships {
            if case .joinTable(let join) = r.storage { try store.removeJoinRows(join, object: key) }
        }
    }

    /// After the transaction committed: permanent IDs, new versions, clean state.
    private func commit(_ newKeys: [ObjectIdentifier: Int64]) {
        var renamed: [ObjectID: ObjectID] = [:]
        for object in inserted.values {
            guard let key = newKeys[ObjectIdentifier(object)] else { continue }
            let id = ObjectID(mapping: object.mapping, storeUUID: store.uuid, primaryKey: key)
            renamed[object.objectID] = id
            registered.removeValue(forKey: object.objectID)
            object.objectID = id
            registered[id] = object
            object.version = 1
        }
        if !renamed.isEmpty {
            for object in registered.values {
                for i in object.toOne.indices { if let id = object.toOne[i], let new = renamed[id] { object.toOne[i] = new } }
                for i in object.toMany.indices {
                    guard let set = object.toMany[i], set.contains(where: { renamed[$0] != nil }) else { continue }
                    object.toMany[i] = OrderedSet(set.map { renamed[$0] ?? $0 })
                }
            }
        }
        for object in updated.values { object.version += 1 }
        for object in deleted.values {
            registered.removeValue(forKey: object.objectID)
            object.managedObjectContext = nil
        }
        let saved = Array(inserted.values) + Array(updated.values) + Array(deleted.values)
        for object in saved {
            object.snapshot = nil
            object.dirtyRelationships = []
            if object.lifecycle == .inserted { object.lifecycle = .registered }
        }
        inserted = [:]
        updated = [:]
        deleted = [:]
        for object in saved { object.didSave() }
        didSaveObservers.forEach { $0(renamed) }
    }
}
