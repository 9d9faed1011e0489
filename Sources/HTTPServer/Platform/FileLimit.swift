#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension Sys {
    /// Raises the soft RLIMIT_NOFILE to the hard limit (capped by `fileLimitCap`: OPEN_MAX on
    /// Darwin, whose shells start at 256) and returns the soft limit now in force.
    static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getFileLimit(&limit) == 0 else { return 256 }
        let wanted = min(limit.rlim_max, fileLimitCap)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setFileLimit(&raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}

/// How many connections the descriptor budget allows: every connection is one descriptor, and
/// the process needs some for itself (stdio, the seed file, per loop a listener, a poller, its
/// wake-up and a spare).
package enum ConnectionBudget {
    /// Descriptors kept back from connections.
    package static func reserved(eventLoops: Int) -> Int { 32 + 4 * max(1, eventLoops) }

    /// min(configured, open files − reserve), at least 1.
    package static func limit(configured: Int, openFiles: Int, eventLoops: Int) -> Int {
        max(1, min(configured, openFiles - reserved(eventLoops: eventLoops)))
    }

    /// Raises the process's descriptor limit as far as allowed (unless `openFiles` says what it
    /// is) and returns the connection limit it leaves, with a warning line when that is below
    /// `configured`. The event loops refuse connections past it (503) instead of running out of
    /// descriptors.
    package static func apply(configured: Int, eventLoops: Int, logger: Logger,
                             openFiles: Int? = nil) -> Int {
        let openFiles = openFiles ?? Sys.openFileLimit()
        let effective = limit(configured: configured, openFiles: openFiles, eventLoops: eventLoops)
        if effective < configured {
            logger.warning("open-file limit is \(openFiles) (ulimit -n): serving at most \(effective) connections instead of --max-connections \(configured); raise `ulimit -n` for more")
        }
        return effective
    }
}
