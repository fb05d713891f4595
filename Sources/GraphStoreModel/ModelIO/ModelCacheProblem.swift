/// Why a store's own `Z_MODELCACHE` was not used for a store opened without a model, so
/// that its model was inferred from the schema instead (property names then lose their
/// case, and relationships are guessed). A store with no `Z_MODELCACHE` table at all
/// (written before framework 637) has no problem: inference is all there is for it.
///
/// ```swift
/// let store = try PersistentStore(path: "App.sqlite")
/// if let problem = store.modelCacheProblem { print("warning: \(problem)") }
/// // warning: the store's Z_MODELCACHE could not be used (the model cache is not raw
/// // DEFLATE data: …); its model was inferred from the schema instead
/// ```
public enum ModelCacheProblem: Sendable, Hashable, CustomStringConvertible {
    /// The cache cannot be read or decoded: damaged, cut short, or not a model.
    case undecodable(ModelCacheError)
    /// The cache decodes, but its model does not fit the store's tables; the first few
    /// differences.
    case mismatched(differences: [String])

    public var description: String {
        switch self {
        case .undecodable(let error):
            "the store's Z_MODELCACHE could not be used (\(error)); its model was inferred from the schema instead"
        case .mismatched(let differences):
            "the store's Z_MODELCACHE does not match its tables (\(differences.joined(separator: "; "))); "
                + "its model was inferred from the schema instead"
        }
    }
}
