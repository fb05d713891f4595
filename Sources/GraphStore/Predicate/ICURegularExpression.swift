import _FoundationICU

/// A regular expression compiled by ICU, the engine behind `NSRegularExpression` and
/// NSPredicate's MATCHES, called through ICU's C API (the toolchain's `_FoundationICU`,
/// whose functions carry a `swift_` prefix) for what Foundation's class does not offer:
///
/// - a work limit: ICU counts the backtracking states a match saves, so the limit is the
///   same on every machine, and a match past it fails with `U_REGEX_TIME_OUT` instead of
///   running for minutes (Foundation sets none, and this ICU silently answers "no match"
///   after some 40 million saves on patterns such as `(?:(a+)+b|a*)`);
/// - interruption: every 10,000 saves ICU calls back, and the callback stops the match
///   when the store's ``MatchInterruption`` is set, or when the operation's ``MatchBudget``
///   is spent (each call back takes 10,000 steps from it);
/// - `uregex_matches`, the whole-string match NSPredicate's MATCHES is defined by.
///
/// ICU keeps the matcher's state in the compiled object, so an instance matches one string
/// at a time; ``RegexCache`` hands each to one caller at a time.
final class ICURegularExpression: @unchecked Sendable {
    /// Backtracking states a match may save, in ICU's units of 10,000: ten million in all,
    /// some 0.15 s on the development machine. Ordinary patterns on ordinary text save far
    /// fewer (`.*x.*y` on 3,000 characters: 4.5 million).
    static let stepLimitInTicks: Int32 = 1_000
    /// The states behind one tick of ICU's limit.
    static let stepsPerTick = 10_000
    /// Bytes of backtracking memory a match may use (ICU's own default, made explicit so
    /// that the error can name it).
    static let memoryLimit: Int32 = 8_000_000

    private let handle: OpaquePointer
    /// What the running match answers to: the store's interruption and the operation's
    /// budget, either of which may be absent.
    struct Watch {
        var interruption: MatchInterruption?
        var budget: MatchBudget?

        /// Called every 10,000 saved states: false (stop) once the interruption is set or
        /// the budget spent.
        func mayGoOn() -> Bool {
            interruption?.matchDidProgress()
            if interruption?.isRequested == true { return false }
            return budget?.spend(ICURegularExpression.stepsPerTick) ?? true
        }
    }

    /// What the running match watches: ICU's match callback is handed this cell's address
    /// as its context. Allocated with the expression and freed with it (after
    /// `uregex_close`), set for each match and cleared after it, so the callback never finds
    /// an interruption or a budget that is gone.
    private let watched: UnsafeMutablePointer<Watch?>

    /// Compiles `pattern`; nil when ICU rejects it.
    init?(pattern: String, caseInsensitive: Bool) {
        let units = Array(pattern.utf16)
        var status = U_ZERO_ERROR
        let flags = caseInsensitive ? UInt32(UREGEX_CASE_INSENSITIVE.rawValue) : 0
        guard units.count < Int32.max,
            let handle = swift_uregex_open(units, Int32(units.count), flags, nil, &status), status.rawValue <= 0
        else { return nil }
        swift_uregex_setTimeLimit(handle, Self.stepLimitInTicks, &status)
        swift_uregex_setStackLimit(handle, Self.memoryLimit, &status)
        self.handle = handle
        watched = .allocate(capacity: 1)
        watched.initialize(to: nil)
    }

    deinit {
        swift_uregex_close(handle)
        watched.deinitialize(count: 1)
        watched.deallocate()
    }

    /// Whether the whole of `text` matches. ICU holds a pointer to the text only while the
    /// match runs; the next match sets its own text first.
    ///
    /// - Parameters:
    ///   - reportedPattern: the pattern to name in an error (as the user wrote it).
    ///   - budget: the operation's budget the match draws on (MATCHES in a predicate; a
    ///     validation rule draws on none).
    /// - Throws: ``RegexMatchError`` when a limit is reached or `interruption` is set;
    ///   ``MatchBudgetError`` when `budget` is spent.
    func matchesWhole(_ text: String, reportedPattern: String, interruption: MatchInterruption?, budget: MatchBudget? = nil) throws -> Bool {
        var status = U_ZERO_ERROR
        if let budget, budget.isSpent { throw budget.spentError("MATCHES", pattern: reportedPattern) }
        if interruption != nil || budget != nil {
            watched.pointee = Watch(interruption: interruption, budget: budget)
            swift_uregex_setMatchCallback(handle, { context, _ in
                guard let watch = context?.assumingMemoryBound(to: Watch?.self).pointee else { return 1 }
                return watch.mayGoOn() ? 1 : 0
            }, watched, &status)
        } else {
            swift_uregex_setMatchCallback(handle, nil, nil, &status)
        }
        defer { watched.pointee = nil }
        let units = Array(text.utf16)
        let matched = units.withUnsafeBufferPointer { buffer in
            swift_uregex_setText(handle, buffer.baseAddress, Int32(clamping: buffer.count), &status)
            return swift_uregex_matches(handle, 0, &status) != 0
        }
        if status.rawValue <= 0 { return matched }
        if status == U_REGEX_STOPPED_BY_CALLER, interruption?.isRequested != true, let budget, budget.isSpent {
            throw budget.spentError("MATCHES", pattern: reportedPattern)
        }
        let reason: RegexMatchError.Reason =
            switch status {
            case U_REGEX_TIME_OUT: .stepLimit(Int(Self.stepLimitInTicks) * Self.stepsPerTick)
            case U_REGEX_STACK_OVERFLOW: .memoryLimit(Int(Self.memoryLimit))
            case U_REGEX_STOPPED_BY_CALLER: .interrupted
            default: .engineFailure(String(cString: swift_u_errorName(status)))
            }
        throw RegexMatchError(pattern: reportedPattern, reason: reason)
    }
}
