#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One client connection. Owned by exactly one event loop and touched only on its thread.
final class Connection {
    let fd: Int32
    let remoteAddress: String
    /// Bytes received but not yet parsed: at most a partial request head (or requests held back by backpressure).
    var inbound: [UInt8] = []
    /// Encoded responses not yet written, from `written` on.
    var outbound: [UInt8] = []
    var written = 0
    var parser: HTTPRequestParser
    /// Set once the connection has been upgraded.
    var webSocket: WebSocketSession?
    var webSocketHandler: WebSocketMessageHandler?
    /// Close once `outbound` is written (error, `Connection: close`, HTTP/1.0, shutdown).
    var closeAfterWrite = false
    /// Our side is shut down for writing; we only drain the peer until it closes (lingering close).
    var lingering = false
    var lingerDeadline: UInt64 = 0
    /// Whether EPOLLOUT is registered (a write would block).
    var wantsWrite = false
    /// Reading paused because too much output is waiting (pipelining flood).
    var readPaused = false
    var lastActivity: UInt64
    /// Monotonic time the current, unfinished request began; 0 when between requests.
    var requestStartedAt: UInt64 = 0

    init(fd: Int32, remoteAddress: String, localPort: Int, limits: HTTPRequestParser.Limits, now: UInt64) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        parser = HTTPRequestParser(limits: limits)
        parser.remoteAddress = remoteAddress
        parser.localPort = localPort
        lastActivity = now
    }

    var pendingOutput: Int { outbound.count - written }
    var isWebSocket: Bool { webSocket != nil }
    var isMidRequest: Bool { !inbound.isEmpty || parser.isMidRequest }
}
