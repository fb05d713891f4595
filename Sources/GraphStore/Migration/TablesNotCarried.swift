/// Tables a migration leaves behind: those of a store's file that neither its version's
/// model, nor Core Data's bookkeeping, nor the framework's own entities (persistent
/// history, …) account for — an app's own table, say. The migrated store is a new file made
/// from the model, so they are not in it (the backup keeps them); the plan names them
/// rather than drop them unsaid.
extension MigrationPlan {
    /// The plan with ``Store/tablesNotCarried`` filled in from the store at `path`, read
    /// with its version's model; unchanged when the store cannot be read so (opening it for
    /// the migration then says why).
    func namingTablesNotCarried(ofStoreAt path: String, versions: ModelVersions) -> MigrationPlan {
        guard !steps.isEmpty, let version = versions.version(named: sourceVersion),
            let store = try? PersistentStore(path: path, model: version.model, origin: .given, readOnly: true)
        else { return self }
        var plan = self
        plan.store?.tablesNotCarried = store.tablesOutsideTheModel
        return plan
    }
}
