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
    /// whose source and destination are a step's versions instead of inferring the step.
    /// Running mapping models is not built yet, so such a step is refused, naming the
    /// mapping model; the others are listed with the versions they fit or why they fit none.
    public func using(_ candidates: [MappingModelCandidate]) -> MigrationPlan {
        var plan = self
        plan.mappingModels = candidates.map(FoundMappingModel.init)
        for index in plan.steps.indices {
            let step = plan.steps[index]
            guard let fitting = plan.mappingModels.first(where: { $0.source == step.source && $0.destination == step.destination }) else { continue }
            plan.steps[index].mappingModel = fitting.path
            // Core Data does not infer a step a mapping model fits: what inference would
            // refuse there does not apply.
            plan.steps[index].mapping.refusals = [MigrationRefusal(
                .migrationFails, entity: fitting.name,
                "fits this step (\(step.source) → \(step.destination)), and Core Data runs a mapping model that fits instead of inferring one; GraphStore reads mapping models (.mapping) but does not run them yet")]
        }
        return plan
    }
}
