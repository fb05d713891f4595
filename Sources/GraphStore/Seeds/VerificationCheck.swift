/// The result of one named check of ``StoreVerifier``.
///
/// ```swift
/// let check = VerificationCheck(name: "layout.z-max", status: .failed, found: 1,
///                               detail: "Book: Z_MAX 3 < largest Z_PK 4")
/// ```
public struct VerificationCheck: Sendable, Hashable {
    /// What a check found.
    public enum Status: String, Sendable, Hashable {
        /// Nothing wrong.
        case passed = "ok"
        /// Something is wrong: the store is not fit to ship.
        case failed = "FAIL"
        /// A fact reported, not judged (journal mode, page size).
        case info
        /// The check could not run on this store (the detail says why).
        case skipped
    }

    /// The check's name, `group.check` (`sqlite.integrity`, `layout.z-max`).
    public var name: String
    /// What it found.
    public var status: Status
    /// How many problems (rows, keys, lines) it found; for an expectation (`expect.*`), how
    /// many objects its line counted.
    public var found: Int
    /// What was found, or the fact reported: a sentence, with up to a few examples.
    public var detail: String

    /// Creates a check result.
    public init(name: String, status: Status, found: Int = 0, detail: String = "") {
        self.name = name
        self.status = status
        self.found = found
        self.detail = detail
    }

    /// A check that passes when `problems` is empty, else fails listing the first few.
    static func judging(_ name: String, problems: [String], total: Int? = nil, passed: String = "") -> VerificationCheck {
        let count = total ?? problems.count
        guard count > 0 else { return VerificationCheck(name: name, status: .passed, detail: passed) }
        let shown = problems.prefix(examplesShown).joined(separator: "; ")
        let more = count > min(problems.count, examplesShown) ? "; … (\(count) in all)" : ""
        return VerificationCheck(name: name, status: .failed, found: count, detail: shown + more)
    }

    /// How many examples a failed check lists.
    static let examplesShown = 5
}
