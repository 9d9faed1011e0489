/// The bounds and timeouts every connection machine applies, in bytes and nanoseconds.
struct ConnectionSettings: Sendable {
    var limits: HTTPRequestParser.Limits
    var maxWebSocketMessageBytes: Int
    var headerTimeout: UInt64
    var idleTimeout: UInt64
    var sendTimeout: UInt64
    var webSocketPingInterval: UInt64
    var webSocketFrameTimeout: UInt64
    /// How long a closing connection drains the peer (shorter while stopping).
    var linger: UInt64 = 2_000_000_000
    var drainingLinger: UInt64 = 200_000_000
    /// Past this much unwritten output a connection stops reading until the peer catches up.
    var outputHighWater: Int
    /// Output queued beyond this (on top of earlier output) closes the connection: the peer does not read.
    var outputHardCap: Int
    /// Answers held back by a delay, at most, before reading pauses.
    var maxHeldAnswers = 64
    /// How long a deferred response may be held at most.
    var maxDeferred: UInt64
    var onDribbledWrite: (@Sendable (Int) -> Void)?

    init(configuration c: ServerConfiguration) {
        limits = HTTPRequestParser.Limits(maxHeaderBytes: c.maxHeaderBytes, maxRequestLineBytes: c.maxRequestLineBytes,
                                          maxBodyBytes: c.maxBodyBytes, largeBodyPaths: c.largeBodyPaths,
                                          maxLargeBodyBytes: max(c.maxBodyBytes, c.maxLargeBodyBytes))
        maxWebSocketMessageBytes = c.maxWebSocketMessageBytes
        headerTimeout = ConnectionSettings.nanos(c.headerTimeout)
        idleTimeout = ConnectionSettings.nanos(c.idleTimeout)
        sendTimeout = ConnectionSettings.nanos(c.sendTimeout)
        webSocketPingInterval = ConnectionSettings.nanos(c.webSocketPingInterval)
        webSocketFrameTimeout = ConnectionSettings.nanos(c.webSocketFrameTimeout)
        maxDeferred = ConnectionSettings.nanos(c.maxDeferredSeconds)
        onDribbledWrite = c.onDribbledWrite
        outputHighWater = max(1, c.outputHighWaterBytes)
        outputHardCap = max(outputHighWater, c.maxPendingOutputBytes)
    }

    /// Seconds to nanoseconds, clamped so the arithmetic cannot trap.
    static func nanos(_ seconds: Double) -> UInt64 {
        let s = seconds.isFinite ? min(max(seconds, 0.001), 31_536_000) : 31_536_000
        return UInt64(s * 1e9)
    }
}

/// What the machines of one event loop share: the application, the log, the loop's clock and
/// the stop flag. Confined to the loop's thread (tests drive one directly and move `now`).
final class ConnectionEnvironment {
    // Confined to the loop's thread: no dynamic exclusivity checks on the hot path (see ConnectionMachine).
    /// Replaced only by the loop itself (`Server.replaceResponder` goes through its mailbox).
    @exclusivity(unchecked) var responder: Responder
    let logger: Logger
    let settings: ConnectionSettings
    let mailbox: LoopMailbox
    /// WebSockets' share of the connection limit, shared by every loop.
    let webSocketSlots: WebSocketSlots
    /// The server-wide budget for unwritten pushed WebSocket output, shared by every loop.
    let pushBudget: PushBudget
    /// Monotonic nanoseconds, set by the loop after each wait.
    @exclusivity(unchecked) var now: UInt64 = 0
    /// The `Date` header value for this second.
    @exclusivity(unchecked) var date: [UInt8] = Array("Thu, 01 Jan 1970 00:00:00 GMT".utf8)
    /// Set when the server stops: answers carry `Connection: close`.
    @exclusivity(unchecked) var draining = false
    /// The largest pending output any connection of this loop has had (a test hook for the bound).
    @exclusivity(unchecked) var peakPendingOutput = 0
    /// Buffer capacity connections gave back since the loop last had freed memory returned.
    @exclusivity(unchecked) var releasedBytes = 0
    /// Scratch for WebSocket events, reused across reads.
    @exclusivity(unchecked) var webSocketEvents: [WebSocketSessionEvent] = []

    init(responder: Responder, logger: Logger, settings: ConnectionSettings, mailbox: LoopMailbox,
         webSocketSlots: WebSocketSlots = WebSocketSlots(limit: .max), pushBudget: PushBudget = PushBudget(limit: .max)) {
        self.responder = responder
        self.logger = logger
        self.settings = settings
        self.mailbox = mailbox
        self.webSocketSlots = webSocketSlots
        self.pushBudget = pushBudget
    }
}
