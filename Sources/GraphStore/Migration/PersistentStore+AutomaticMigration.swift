extension PersistentStore {
    /// Opens a store with its bundle's current version, migrating it first when it is of
    /// an older version and `migrateAutomatically` is true, as Core Data does with
    /// `NSMigratePersistentStoresAutomaticallyOption` and
    /// `NSInferMappingModelAutomaticallyOption`: the mapping is inferred, the migration runs
    /// as ``MigrationManager`` runs it (no backup is kept, as Core Data keeps none), and the
    /// store is opened for writing.
    ///
    /// ```swift
    /// let versions = try ModelVersions(path: "App.xcdatamodeld")
    /// let store = try PersistentStore(path: "App.sqlite", versions: versions, migrateAutomatically: true)
    /// ```
    ///
    /// - Throws: ``MigrationRunError`` when the migration is refused or fails (the store is
    ///   then as it was); ``StoreError/modelMismatch(path:differences:)`` (134100) when the
    ///   store is of another version and `migrateAutomatically` is false; ``StoreError``
    ///   when the store cannot be opened.
    public convenience init(path: String, versions: ModelVersions, migrateAutomatically: Bool) throws {
        let manager = MigrationManager(versions: versions)
        let plan = try manager.plan(forStoreAt: path)
        guard let current = versions.version(named: plan.targetVersion) else {
            throw MigrationRunError.plan(.noCurrentVersion(bundle: versions.path))
        }
        if !plan.steps.isEmpty {
            guard migrateAutomatically else {
                throw StoreError.modelMismatch(
                    path: path, differences: ["the store is at version \(plan.sourceVersion) of \(versions.path), not at the current \(plan.targetVersion); migrate it"])
            }
            try manager.migrate(storeAt: path, options: .init(keepsBackup: false))
        }
        try self.init(path: path, model: current.model, origin: .given, readOnly: false)
    }
}
