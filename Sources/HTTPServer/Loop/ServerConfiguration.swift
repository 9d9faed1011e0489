/// Every setting of the server, each with the default the command line documents.
package struct ServerConfiguration: Sendable {
    /// Test seam: told the byte count of each piece of a dribbled body (`Delivery.dribble`) as it is
    /// written, on the loop thread, before its bytes are queued. Nil outside tests.
    package var onDribbledWrite: (@Sendable (Int) -> Void)?
    /// Address to bind (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`).
    package var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one (read it back from `Server.port`).
    package var port = 8080
    /// Request line plus headers, in bytes, before the answer is 431 (414 for the request line alone).
    package var maxHeaderBytes = 16 * 1024
    /// Request line alone, in bytes, before the answer is 414.
    package var maxRequestLineBytes = 8 * 1024
    /// Request body, in bytes, before the answer is 413.
    package var maxBodyBytes = 1024 * 1024
    /// Paths whose request body may reach `maxLargeBodyBytes` instead (an import of recorded stubs).
    package var largeBodyPaths: Set<String> = []
    /// The body limit of `largeBodyPaths` (never below `maxBodyBytes`).
    package var maxLargeBodyBytes = 64 * 1024 * 1024
    /// Seconds a client may take to send a complete request head before it gets 408.
    package var headerTimeout = 10.0
    /// Seconds an idle keep-alive connection stays open.
    package var idleTimeout = 60.0
    /// Largest WebSocket message (after joining fragments), in bytes, before close 1009.
    package var maxWebSocketMessageBytes = 1024 * 1024
    /// Open connections at most; past it new clients get 503 and are closed.
    package var maxConnections = 10_000
    /// Request paths (exact) still answered when `maxConnections` is reached, each on one of
    /// `reservedConnections` extra slots and then closed: a health probe gets through when clients
    /// fill the table. Any other request on such a slot gets the 503 of a full table.
    package var reservedPaths: [String] = []
    /// Extra connection slots kept for `reservedPaths` (none when that list is empty).
    var reservedConnections = 2
    /// Open WebSockets at most (counted within `maxConnections`); past it an upgrade gets 503, so
    /// HTTP clients keep room. 0 means half the connection limit in force.
    package var maxWebSocketConnections = 0
    /// Event-loop threads; 0 means one per CPU core.
    package var eventLoops = 0
    /// Seconds given to requests in flight when stopping.
    package var shutdownGrace = 5.0
    /// Readiness mechanism of the event loops (`--poller`); the platform's best by default.
    package var poller = PollerKind.platformDefault

    /// Seconds a connection's pending output may make no progress before it is closed (a peer that
    /// does not read), like nginx's `send_timeout`.
    package var sendTimeout = 30.0
    /// Seconds of WebSocket silence before the server pings; a ping unanswered as long again closes it.
    package var webSocketPingInterval = 30.0
    /// Seconds a started WebSocket frame or fragmented message may stay unfinished before close.
    package var webSocketFrameTimeout = 30.0
    /// Unwritten output, in bytes, past which a connection stops reading (and answering pipelined
    /// requests) until the peer catches up: about one answer, as nginx holds, so a client that
    /// does not read costs tens of KiB, not megabytes.
    package var outputHighWaterBytes = 64 * 1024
    /// Unwritten output, in bytes, past which more output closes the connection instead (the peer
    /// does not read, e.g. a WebSocket subscriber); one answer into an empty buffer is always allowed.
    package var maxPendingOutputBytes = 8 * 1024 * 1024
    /// Unwritten output of pushed WebSocket messages (`WebSocketConnection.send`: the events
    /// stream's fan-out), in bytes, summed over every connection; past it the connections holding
    /// most drop their unsent messages and are closed with 1008 and the reason, so subscribers that
    /// do not read hold this much in all, not `maxPendingOutputBytes` each.
    package var maxPushedOutputBytes = 64 * 1024 * 1024
    /// Seconds a deferred response (`DeferredResponse`) may be held at most, whatever it asks.
    package var maxDeferredSeconds = 600.0
    /// Hand every accepted connection from one listener to the loops (always on Darwin, where
    /// SO_REUSEPORT does not spread connections); on Linux, one listener per loop unless set.
    package var singleListener = false
    /// Requests to upstreams (proxying): timeouts, bounds, the hosts they may reach.
    package var outbound = OutboundSettings()

    package init() {}
}
