import HTTPServer

/// A bound on state an unauthenticated client can grow, and the log line when it bites: the
/// first time and every 1,000th after, so a flood cannot turn the cap into a flood of lines.
package final class StateCap: Sendable {
    package let limit: Int
    private let flag: String
    private let bites = Locked(0)
    private let logger: Logger

    package init(limit: Int?, fallback: Int?, flag: String, logger: Logger) {
        self.limit = max(1, limit ?? fallback ?? 10_000)
        self.flag = flag
        self.logger = logger
    }

    /// The cap a system's count setting sets in `environment` (its default when unset).
    package convenience init(_ setting: SystemSetting, environment: MockEnvironment) {
        self.init(limit: environment.settings[setting.key]?.number, fallback: setting.defaultValue?.number,
                  flag: setting.flag, logger: environment.logger)
    }

    /// Records that the cap bit; logs `what` (with the running count) when due.
    package func bit(_ what: @autoclosure () -> String) {
        let n = bites.withLock { n in n += 1; return n }
        if n == 1 || n % 1_000 == 0 {
            logger.warning("\(what()) (cap \(limit), \(flag); \(n) time\(n == 1 ? "" : "s") since start)")
        }
    }
}
