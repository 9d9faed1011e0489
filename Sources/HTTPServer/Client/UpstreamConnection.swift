#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One request on its way to an upstream and the code waiting for the answer.
final class OutboundExchange {
    let request: OutboundRequest
    let completion: (OutboundResult) -> Void
    /// Already retried once on a fresh connection (a pooled one was closed under it).
    var retried = false

    init(request: OutboundRequest, completion: @escaping (OutboundResult) -> Void) {
        self.request = request
        self.completion = completion
    }
}

/// One socket to an upstream, owned by an `OutboundClient` on its loop's thread.
final class UpstreamConnection {
    enum Phase { case connecting, handshaking, sending, awaiting, idle }

    let fd: Int32
    let upstream: Upstream
    @exclusivity(unchecked) var phase: Phase
    /// Addresses still to try when this connect fails.
    @exclusivity(unchecked) var fallbacks: [(storage: sockaddr_storage, length: socklen_t)]
    @exclusivity(unchecked) var exchange: OutboundExchange?
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) var written = 0
    @exclusivity(unchecked) var parser: UpstreamResponseParser?
    /// Carried an answer before: a failure before the first byte of the next one is retried.
    @exclusivity(unchecked) var reused = false
    /// When this phase runs out (connect, answer, or idle), monotonic nanoseconds.
    @exclusivity(unchecked) var deadline: UInt64 = 0
    @exclusivity(unchecked) var watchingWrite = false
    /// The TLS session of an https upstream (nil for http); freed before the socket is closed.
    @exclusivity(unchecked) var tls: TLSSession?

    init(fd: Int32, upstream: Upstream, phase: Phase, fallbacks: [(storage: sockaddr_storage, length: socklen_t)]) {
        self.fd = fd
        self.upstream = upstream
        self.phase = phase
        self.fallbacks = fallbacks
    }
}
