/// What every event loop of one server reads: settings, the responder, the log, the stop flag
/// and the open-connection count (the only mutable parts, each behind a lock).
final class ServerShared: Sendable {
    let configuration: ServerConfiguration
    let responder: Responder
    let logger: Logger
    let limits: HTTPRequestParser.Limits
    let tickMillis: Int32
    private let stopping = Locked(false)
    private let open = Locked(0)

    init(configuration: ServerConfiguration, responder: Responder, logger: Logger) {
        // Library users bypass the command line's checks: clamp durations so nanosecond maths cannot trap.
        var configuration = configuration
        for keyPath in [\ServerConfiguration.headerTimeout, \.idleTimeout, \.shutdownGrace] {
            let v = configuration[keyPath: keyPath]
            configuration[keyPath: keyPath] = v.isFinite ? min(max(v, 0.001), 31_536_000) : 31_536_000
        }
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        limits = HTTPRequestParser.Limits(maxHeaderBytes: configuration.maxHeaderBytes,
                                          maxRequestLineBytes: configuration.maxRequestLineBytes,
                                          maxBodyBytes: configuration.maxBodyBytes)
        // Timers are checked at a quarter of the shortest timeout, between 10 ms and 1 s.
        let shortest = min(configuration.headerTimeout, configuration.idleTimeout)
        tickMillis = Int32(max(10, min(1000, shortest * 250)))
    }

    var isStopping: Bool { stopping.withLock { $0 } }
    func markStopping() { stopping.withLock { $0 = true } }

    var openConnections: Int { open.withLock { $0 } }

    /// Counts a new connection in, unless the configured maximum is reached.
    func reserveConnection() -> Bool {
        open.withLock { n in
            guard n < configuration.maxConnections else { return false }
            n += 1
            return true
        }
    }

    func releaseConnection() { open.withLock { $0 -= 1 } }
}
