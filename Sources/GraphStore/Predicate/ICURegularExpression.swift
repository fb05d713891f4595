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
///   when the store's ``MatchInterruption`` is set;
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
    /// The interruption the running match watches: ICU's match callback is handed this
    /// cell's address as its context. Allocated with the expression and freed with it (after
    /// `uregex_close`), set for each match and cleared after it, so the callback never finds
    /// an interruption that is gone.
    private let watched: UnsafeMutablePointer<MatchInterruption?>

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
    /// - Parameter reportedPattern: the pattern to name in an error (as the user wrote it).
    /// - Throws: ``RegexMatchError`` when a limit is reached or `interruption` is set.
    func matchesWhole(_ text: String, reportedPattern: String, interruption: MatchInterruption?) throws(RegexMatchError) -> Bool {
        var status = U_ZERO_ERROR
        if let interruption {
            // Called every 10,000 saved states: false (stop) once the interruption is set.
            watched.pointee = interruption
            swift_uregex_setMatchCallback(handle, { context, _ in
                guard let interruption = context?.assumingMemoryBound(to: MatchInterruption?.self).pointee else { return 1 }
                interruption.matchDidProgress()
                return interruption.isRequested ? 0 : 1
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
