import HTTPServer

/// Wrong admin tokens per peer: each is logged, and past `limit` in one `window` the peer's
/// further token attempts get 429 until the window ends, so the token cannot be guessed at
/// network speed. Bounded: at most `maxPeers` peers are remembered.
package final class AdminFailures: Sendable {
    /// Wrong tokens a peer may send in one window before it is refused.
    package static let limit = 10
    /// The window, in seconds.
    static let windowSeconds: UInt64 = 60
    static let maxPeers = 4096

    private struct Record {
        var failures: Int
        var windowStart: UInt64
    }

    private let records = Locked<[String: Record]>([:])
    private let logger: Logger

    package init(logger: Logger) { self.logger = logger }

    /// Seconds until the peer may try a token again, or nil when it may now.
    func retryAfter(peer: String, now: UInt64 = SystemTime.monotonicNanos()) -> Int? {
        records.withLock { table in
            guard let record = table[peer] else { return nil }
            let elapsed = now &- record.windowStart
            let window = AdminFailures.windowSeconds * 1_000_000_000
            guard elapsed < window else {
                table[peer] = nil
                return nil
            }
            guard record.failures >= AdminFailures.limit else { return nil }
            return Int((window - elapsed + 999_999_999) / 1_000_000_000)
        }
    }

    /// Counts one wrong token from `peer` (`what` names it for the log line).
    package func record(peer: String, what: String, now: UInt64 = SystemTime.monotonicNanos()) {
        let failures = records.withLock { table -> Int in
            let window = AdminFailures.windowSeconds * 1_000_000_000
            var record = table[peer] ?? Record(failures: 0, windowStart: now)
            if now &- record.windowStart >= window { record = Record(failures: 0, windowStart: now) }
            record.failures += 1
            if table[peer] == nil && table.count >= AdminFailures.maxPeers { AdminFailures.makeRoom(&table, now: now) }
            table[peer] = record
            return record.failures
        }
        if failures < AdminFailures.limit {
            logger.warning("admin: \(what) from \(peer) (\(failures) of \(AdminFailures.limit) allowed in \(AdminFailures.windowSeconds) s)")
        } else if failures == AdminFailures.limit {
            logger.warning("admin: \(what) from \(peer); \(AdminFailures.limit) in \(AdminFailures.windowSeconds) s, so its token attempts get 429 until the minute is over")
        }
    }

    /// Forgets the peers whose window is over; if none is, the one whose window began first.
    private static func makeRoom(_ table: inout [String: Record], now: UInt64) {
        let window = windowSeconds * 1_000_000_000
        let before = table.count
        table = table.filter { now &- $0.value.windowStart < window }
        if table.count == before, let oldest = table.min(by: { $0.value.windowStart < $1.value.windowStart })?.key {
            table[oldest] = nil
        }
    }
}
