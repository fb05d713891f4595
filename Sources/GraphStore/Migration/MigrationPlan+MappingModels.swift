import Foundation

extension MigrationPlan {
    /// A mapping model the plan looked at: the versions it maps between, or why it cannot
    /// be used.
    public struct FoundMappingModel: Sendable, Hashable {
        /// The file's path.
        public var path: String
        /// The versions it maps from and to, when both snapshots are versions of the bundle.
        public var source: String?
        public var destination: String?
        /// Why it fits no step: unreadable, or a snapshot that is no version of the bundle.
        public var problem: String?

        /// The file's name.
        public var name: String { (path as NSString).lastPathComponent }

        init(_ candidate: MappingModelCandidate) {
            path = candidate.path
            source = candidate.versions?.source
            destination = candidate.versions?.destination
            if let problem = candidate.problem {
                self.problem = problem
            } else if let fit = candidate.fit, !fit.fits {
                let sides = [("source", fit.source), ("destination", fit.destination)].compactMap { name, side in
                    side.flatMap { side in side.fits ? nil : "its \(name) snapshot is no version of the bundle (nearest \(side.version): \(side.differences.first.map(\.description) ?? "it differs"))" }
                }
                problem = sides.isEmpty ? "it has no model snapshots" : sides.joined(separator: "; ")
            }
        }
    }

    /// The plan with the mapping models that fit its steps: Core Data runs a mapping model
    /// whose source and destination are a step's versions instead of inferring the step, so
    /// such a step runs the mapping model, and what inference would refuse there does not
    /// apply. What would stop the mapping model (``MappingModelCheck``: a mapping that does
    /// not match the versions, a policy class `policies` does not have) refuses the step
    /// before anything runs. The other mapping models are listed with the versions they fit
    /// or why they fit none.
    public func using(
        _ candidates: [MappingModelCandidate], versions: ModelVersions? = nil, policies: MigrationPolicies = MigrationPolicies()
    ) -> MigrationPlan {
        var plan = self
        plan.mappingModels = candidates.map(FoundMappingModel.init)
        for index in plan.steps.indices {
            let step = plan.steps[index]
            guard let fitting = candidates.first(where: { $0.versions?.source == step.source && $0.versions?.destination == step.destination }),
                let mappingModel = fitting.mappingModel
            else { continue }
            plan.steps[index].mappingModel = fitting.path
            plan.steps[index].entityMappings = mappingModel.entityMappings
            guard let source = versions?.version(named: step.source)?.model ?? mappingModel.sourceModel,
                let destination = versions?.version(named: step.destination)?.model ?? mappingModel.destinationModel
            else { continue }
            plan.steps[index].mapping.refusals = MappingModelCheck(
                mappingModel: mappingModel, name: fitting.name, source: source, destination: destination, policies: policies
            ).refusals
            let copy = MappingModelCopy(mappingModel, source: source, destination: destination)
            plan.steps[index].mappingRun = copy.reason.map { .objectByObject(reason: $0) } ?? .copiesWithSQL
        }
        return plan
    }
}
