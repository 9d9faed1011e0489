/// The share of the connection limit WebSockets may hold, counted over every loop, so that idle
/// WebSockets that answer pings cannot lock every HTTP client out.
final class WebSocketSlots: Sendable {
    private struct Count {
        var open = 0
        var limit: Int
        var lastWarning: UInt64 = 0
    }

    private let count: Locked<Count>

    init(limit: Int) { count = Locked(Count(limit: limit)) }

    /// The WebSocket limit in force.
    var limit: Int { count.withLock { $0.limit } }
    func setLimit(_ limit: Int) { count.withLock { $0.limit = limit } }

    /// Takes a slot for a new WebSocket, unless the share is used up.
    func reserve() -> Bool {
        count.withLock { c in
            guard c.open < c.limit else { return false }
            c.open += 1
            return true
        }
    }

    func release() { count.withLock { $0.open -= 1 } }

    /// True at most once a second (a refusal's warning line).
    func shouldWarn(now: UInt64) -> Bool {
        count.withLock { c in
            guard c.lastWarning == 0 || now &- c.lastWarning >= 1_000_000_000 else { return false }
            c.lastWarning = now
            return true
        }
    }

    /// The share when none is configured: half the connection limit.
    static func defaultLimit(configured: Int, connectionLimit: Int) -> Int {
        configured > 0 ? min(configured, connectionLimit) : max(1, connectionLimit / 2)
    }
}
