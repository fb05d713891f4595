/// Finding an object by the short name messages show (`Book/p4`), as typed in a shell.
extension ManagedObjectContext {
    /// The object named `Book/p4` (or `Book/4`, `Book/p4`), `Book/t2` (the second object
    /// inserted in this context and not yet saved), or by a Core Data URI. The entity may
    /// be a parent of the object's entity. Throws when there is no such object (a deleted
    /// one included).
    ///
    /// ```swift
    /// let book = try context.object(named: "Book/p4")
    /// let draft = try context.insert("Book")          // Book/t1
    /// try context.object(named: "Book/t1") === draft  // true
    /// ```
    public func object(named reference: String) throws -> ManagedObject {
        if reference.hasPrefix("x-coredata:") { return try existingObject(uri: reference) }
        let parts = reference.split(whereSeparator: { $0 == "/" || $0 == " " })
        guard parts.count == 2 else { throw StoreError.objectNotFound("\(reference) (write ENTITY/pKEY, e.g. Book/p4)") }
        let entity = String(parts[0])
        let key = parts[1]
        let mapping = try store.mapping(for: entity)
        if key.first == "t", let serial = Int64(key.dropFirst()) {
            let match = inserted.values.first { object in
                object.isInserted && mapping.numbersWithDescendants.contains(object.mapping.number)
                    && object.objectID == ObjectID(temporaryFor: object.mapping, serial: serial)
            }
            guard let match else { throw StoreError.objectNotFound("\(entity)/t\(serial) (no unsaved insert has that temporary key)") }
            return match
        }
        guard let primaryKey = Int64(key.first == "p" ? key.dropFirst() : key[...]) else {
            throw StoreError.objectNotFound("\(reference) (a key is p<number> for a stored object or t<number> for an unsaved one)")
        }
        let object = try existingObject(entity: mapping.name, primaryKey: primaryKey)
        guard !object.isDeleted else { throw StoreError.objectNotFound("\(object.objectID) (it was deleted; save or rollback first)") }
        return object
    }
}
