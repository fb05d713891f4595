/// Tables a migration leaves behind: those of a store's file that neither its version's
/// model, nor Core Data's bookkeeping, nor the framework's own entities (persistent
/// history, …) account for — an app's own table, say. The migrated store is a new file made
/// from the model, so they are not in it (the backup keeps them); the plan names them
/// rather than drop them unsaid.
extension MigrationPlan {
    /// The plan with ``Store/tablesNotCarried`` filled in from `store`, the store it is made
    /// for, opened with its version's model.
    func namingTablesNotCarried(in store: PersistentStore) -> MigrationPlan {
        var plan = self
        plan.store?.tablesNotCarried = store.tablesOutsideTheModel
        if steps.contains(where: { $0.mappingModel != nil }) { plan.store?.frameworkTablesNotCarried = store.frameworkTables }
        return plan
    }
}
