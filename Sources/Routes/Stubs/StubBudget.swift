import HTTPServer

/// A bound on the work one matcher may do for one request (comparisons, JSON nodes visited):
/// `equalToJson` and JSONPath stop when it is spent and answer "no match", so no body can make
/// a mapping's match run for seconds.
struct StubBudget {
    /// Steps a matcher may take for one request: about a million comparisons, tens of
    /// milliseconds at worst, far above what any body under the request limit needs in the
    /// common case (equal elements are paired by hash first).
    static let matchSteps = 1_000_000

    private(set) var remaining: Int
    /// Set once a step was refused: the answer is "no match", and the warning is logged.
    private(set) var exhausted = false

    init(steps: Int = StubBudget.matchSteps) { remaining = steps }

    /// Takes `n` steps; false (and `exhausted` set) when they are not left.
    @inline(__always)
    mutating func spend(_ n: Int = 1) -> Bool {
        if exhausted { return false }
        remaining -= n
        if remaining < 0 { exhausted = true; return false }
        return true
    }

    /// Logs that `what` gave up on a body of `bytes` bytes (the request then matches no mapping
    /// through it, so the log is where the reason shows).
    static func reportExhausted(_ what: String, bytes: Int) {
        StubWarnings.report("stub matcher \(what) gave up after \(matchSteps) steps on \(bytes) bytes: treated as no match "
                            + "(docs/stubs.md, \"Limits\")")
    }
}

/// Where a matcher that ran out of its budget is reported: the log of the newest app (the
/// control plane sets it, as it sets the stub store's observer). A process-wide sink because a
/// matcher knows neither its store nor its app; several embedded servers in one process share it.
package enum StubWarnings {
    private static let sink = Locked<Boxed<@Sendable (String) -> Void>?>(nil)

    /// Sets who hears the warnings (nil: nobody).
    package static func observe(_ body: (@Sendable (String) -> Void)?) { sink.withLock { $0 = body.map(Boxed.init) } }

    /// Tells the observer, if any.
    static func report(_ text: String) {
        let body = sink.withLock { $0 }
        body?.value(text)
    }
}
