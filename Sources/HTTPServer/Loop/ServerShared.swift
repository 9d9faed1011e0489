/// What every event loop of one server reads: settings, the responder, the log, the stop flag
/// and the open-connection count (the mutable parts, each behind a lock).
final class ServerShared: Sendable {
    let configuration: ServerConfiguration
    /// What a loop starts with; a running loop keeps its own copy, swapped through its mailbox.
    private let responder: Locked<Responder>
    let logger: Logger
    let settings: ConnectionSettings
    let tickMillis: Int32
    private let stopping = Locked(false)
    private let open = Locked((count: 0, limit: 0))
    /// Connections on the slots kept for `reservedPaths` (beyond the limit).
    private let reserved = Locked(0)
    /// `configuration.reservedPaths`, for the machines of reserved slots.
    let reservedPaths: Set<String>
    /// WebSockets' share of the connection limit.
    let webSocketSlots: WebSocketSlots
    /// Unwritten pushed WebSocket output, summed over every connection.
    let pushBudget: PushBudget
    private let listeners = Locked(0)
    private let peakOutput = Locked(0)
    private let lastRelease = Locked<UInt64>(0)

    init(configuration: ServerConfiguration, responder: Responder, logger: Logger) {
        // Library users bypass the command line's checks: clamp durations so nanosecond maths cannot trap.
        var configuration = configuration
        for keyPath in [\ServerConfiguration.headerTimeout, \.idleTimeout, \.shutdownGrace, \.sendTimeout,
                        \.webSocketPingInterval, \.webSocketFrameTimeout, \.maxDeferredSeconds] {
            let v = configuration[keyPath: keyPath]
            configuration[keyPath: keyPath] = v.isFinite ? min(max(v, 0.001), 31_536_000) : 31_536_000
        }
        self.configuration = configuration
        self.responder = Locked(responder)
        self.logger = logger
        settings = ConnectionSettings(configuration: configuration)
        open.withLock { $0.limit = configuration.maxConnections }
        reservedPaths = Set(configuration.reservedPaths)
        webSocketSlots = WebSocketSlots(limit: WebSocketSlots.defaultLimit(configured: configuration.maxWebSocketConnections,
                                                                           connectionLimit: configuration.maxConnections))
        pushBudget = PushBudget(limit: configuration.maxPushedOutputBytes)
        // Timers are checked at a quarter of the shortest timeout, between 10 ms and 1 s.
        let shortest = min(configuration.headerTimeout, configuration.idleTimeout, configuration.sendTimeout,
                           configuration.webSocketPingInterval, configuration.webSocketFrameTimeout)
        tickMillis = Int32(max(10, min(1000, shortest * 250)))
    }

    var currentResponder: Responder { responder.withLock { $0 } }
    func setResponder(_ new: Responder) { responder.withLock { $0 = new } }

    var isStopping: Bool { stopping.withLock { $0 } }
    func markStopping() { stopping.withLock { $0 = true } }

    var openConnections: Int { open.withLock { $0.count } }

    /// The connection limit in force: the configured one, lowered to what the descriptor limit allows.
    var connectionLimit: Int { open.withLock { $0.limit } }
    func setConnectionLimit(_ limit: Int) {
        open.withLock { $0.limit = limit }
        webSocketSlots.setLimit(WebSocketSlots.defaultLimit(configured: configuration.maxWebSocketConnections, connectionLimit: limit))
    }

    /// Counts a new connection in, unless the limit is reached.
    func reserveConnection() -> Bool {
        open.withLock { state in
            guard state.count < state.limit else { return false }
            state.count += 1
            return true
        }
    }

    func releaseConnection() { open.withLock { $0.count -= 1 } }

    /// Takes one of the slots kept for `reservedPaths` (the table is full), unless none is free.
    func reserveReservedSlot() -> Bool {
        guard !reservedPaths.isEmpty else { return false }
        return reserved.withLock { count in
            guard count < configuration.reservedConnections else { return false }
            count += 1
            return true
        }
    }

    func releaseReservedSlot() { reserved.withLock { $0 -= 1 } }

    func listenerOpened() { listeners.withLock { $0 += 1 } }
    func listenerClosed() { listeners.withLock { $0 -= 1 } }
    var allListenersClosed: Bool { listeners.withLock { $0 <= 0 } }

    /// Returns freed heap memory to the system, at most once a second for the whole server (the
    /// call walks every allocator arena); false when it was done too recently.
    func releaseFreeMemory(now: UInt64) -> Bool {
        let due = lastRelease.withLock { last -> Bool in
            guard last == 0 || now &- last >= 1_000_000_000 else { return false }
            last = now
            return true
        }
        if due { Sys.releaseFreeMemory() }
        return due
    }

    /// The largest pending output any connection has had (a test hook for the output bound).
    var peakPendingOutput: Int { peakOutput.withLock { $0 } }
    func notePendingOutput(_ bytes: Int) { peakOutput.withLock { $0 = max($0, bytes) } }
}
