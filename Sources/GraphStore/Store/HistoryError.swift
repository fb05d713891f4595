/// Why a save to a store that keeps persistent history, or a history request, could not
/// be done. A save refused for one of these reasons wrote nothing.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The save's history rows cannot be written as Core Data would write them, for
    /// `reason` (a detail of the format GraphStore has not established). Setting
    /// ``ManagedObjectContext/savesHistory`` to false saves without history rows.
    case cannotRecord(path: String, reason: String)
    /// The store's history tables are not as Core Data makes them.
    case malformedHistory(path: String, reason: String)
    /// A history request on a store that does not track history (it has no history tables).
    case notKept(path: String)

    /// The error text: what, where and why, and how to save anyway.
    public var description: String {
        switch self {
        case .cannotRecord(let path, let reason):
            "\(path): this store keeps persistent history and GraphStore cannot write this save's history as Core Data would: \(reason); nothing was written. To save without history rows (the app's history readers and CloudKit mirroring will then not see the change), set the context's savesHistory to false"
        case .malformedHistory(let path, let reason):
            "\(path): the persistent history tables are not as Core Data makes them: \(reason)"
        case .notKept(let path):
            "\(path): the store keeps no persistent history (no ATRANSACTION, ACHANGE or ATRANSACTIONSTRING table: the app did not turn on history tracking)"
        }
    }
}
