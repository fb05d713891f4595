/// The failures of typed accessors (see ``AccessError``).
extension ManagedObjectContext {
    /// What typed properties of this context's objects could not read or write since the
    /// last save, rollback or reset (the first hundred). While any is kept, a save with
    /// changes throws ``AccessFailure``.
    public var accessErrors: [AccessError] { accessErrorLog.errors }

    /// Forgets the failures of typed accessors, so that the next save writes: for when the
    /// app has dealt with them (reloaded, or decided the empty values were right).
    public func clearAccessErrors() {
        accessErrorLog = AccessErrorLog()
    }
}

extension ManagedObject {
    /// Keeps a typed accessor's failure with the object's context (none: nothing to keep).
    @usableFromInline
    func recordAccessFailure(_ error: any Error, key: String) {
        managedObjectContext?.accessErrorLog.append(AccessError(objectID: objectID, key: key, underlying: error))
    }
}
