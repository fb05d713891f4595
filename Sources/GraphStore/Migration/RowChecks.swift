/// The checks a step makes on the store's rows before anything is written: no to-one loses
/// links (``MigrationStep/linkRefusals(in:)``) and no value changes with its type
/// (``MigrationStep/valueRefusals(in:)``).
extension MigrationStep {
    /// Both checks' refusals, read from `store` at the step's source version.
    func rowRefusals(in store: PersistentStore) throws(StoreError) -> [MigrationRefusal] {
        try linkRefusals(in: store) + valueRefusals(in: store)
    }

    /// Whether either check has something to read.
    var needsRowCheck: Bool { mappingModel == nil && (needsLinkCheck || needsValueCheck) }
}

extension MigrationPlan {
    /// The plan with the first step's ``MigrationStep/rowRefusals(in:)`` added, read from
    /// `opened`: the store opened read-only with the step's source model (later steps are
    /// checked on their own source file when the migration runs). A store that could not be
    /// opened so refuses the step, saying why.
    func checkingRows(of opened: Result<PersistentStore, StoreError>) -> MigrationPlan {
        guard let first = steps.first, first.needsRowCheck else { return self }
        var plan = self
        do {
            plan.steps[0].mapping.refusals += try first.rowRefusals(in: opened.get())
        } catch {
            let checked = first.mapping.entities.first { entity in
                entity.relationships.contains(where: \.becomesToOneFromToMany) || entity.attributes.contains { $0.checkedConversion != nil }
            }
            plan.steps[0].mapping.refusals.append(MigrationRefusal(
                .migrationFails, entity: checked?.name ?? "",
                "its rows could not be read to check that no to-one loses links and no value changes with its type: \(error)"))
        }
        return plan
    }
}
