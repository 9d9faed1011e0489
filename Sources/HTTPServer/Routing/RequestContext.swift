/// What the transport and the router know about a request, kept beside it rather than written
/// into it: the peer, the port it arrived on and the matched route's path parameters. The
/// responder hands it to the middleware and the handler with the request (after Hummingbird 2's
/// request context); the request itself stays what the client sent.
public struct RequestContext: Sendable {
    /// The peer's IP address as text (`127.0.0.1`, `::1`); empty when unknown.
    public var remoteAddress: String
    /// The server port the request arrived on; 0 when it did not come over a socket.
    public var localPort: Int
    /// Values of `:name` segments of the matched route pattern, percent-decoded.
    public var pathParameters: PathParameters

    /// A context; the defaults stand for a loopback client outside any socket (tests, in-process calls).
    public init(remoteAddress: String = "127.0.0.1", localPort: Int = 0, pathParameters: PathParameters = [:]) {
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.pathParameters = pathParameters
    }

    /// True when the peer is on the loopback interface (127.0.0.0/8 or ::1).
    public var isFromLoopback: Bool {
        remoteAddress.hasPrefix("127.") || remoteAddress == "::1" || remoteAddress.hasPrefix("::ffff:127.")
    }
}
