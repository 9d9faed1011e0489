/// What the transport and the router know about a request, kept beside it rather than written
/// into it or into its response (after Hummingbird 2's request context): the peer, the port it
/// arrived on, the matched route's path parameters and the group owning the path, decided once
/// by the responder from the matched route group, and which stage answered instead of the route; and what the handler and the stages say
/// about the answer besides its status, headers and body (how the transport delivers it, the
/// level of its log line). The connection makes one per request and the responder passes it
/// `inout` to the stages and the handler, so it is never copied; the transport reads it
/// back when it sends the answer.
@usableFromInline package struct RequestContext: Sendable {
    /// The peer's IP address as text (`127.0.0.1`, `::1`); empty when unknown.
    package var remoteAddress: String
    /// The server port the request arrived on; 0 when it did not come over a socket.
    package var localPort: Int
    /// Values of `:name` segments of the matched route pattern, percent-decoded.
    package var pathParameters: PathParameters
    /// The group owning the path, with its role: the matched route's group, else the first group
    /// whose prefixes hold the path; nil when no group owns it. The responder sets it before the
    /// stages run.
    @usableFromInline package var owner: RouteOwner?
    /// A stage that answered instead of the route (a stub) or acted on its answer (a fault rule).
    package var answeredBy: Substitute?
    /// How the transport delivers the answer; faults and deferred answers change it.
    package var delivery = Delivery()
    /// The level of the answer's log line: info, or debug for the chatter a person does not
    /// read (an admin client polling the outbox).
    package var logLevel: LogLevel = .info
    /// When the request's first byte arrived (`SystemTime.monotonicNanos`), stamped by the
    /// connection: the one origin of the request's durations, the log line's and the journal
    /// entry's, so the two agree on where a request's time begins.
    package var arrivedAt: UInt64
    /// The connection still holds an earlier answer (delayed or deferred), so this one, held or
    /// not, goes out after it: set by the connection, for what records answers when they are sent.
    package var behindHeldAnswer = false

    /// A context; the defaults stand for a loopback client outside any socket (tests, in-process
    /// calls), whose request arrives when its context is made.
    package init(remoteAddress: String = "127.0.0.1", localPort: Int = 0, pathParameters: PathParameters = [:],
                 arrivedAt: UInt64 = SystemTime.monotonicNanos()) {
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.pathParameters = pathParameters
        self.arrivedAt = arrivedAt
    }

    /// The system column of the answer's log line: the stub that answered (`stubs/<name>`), else
    /// the path's owner.
    package var system: String? {
        if let answeredBy, let name = answeredBy.logSystem { return name }
        return owner?.name
    }

    /// True when the peer is on the loopback interface (127.0.0.0/8 or ::1).
    package var isFromLoopback: Bool {
        remoteAddress.hasPrefix("127.") || remoteAddress == "::1" || remoteAddress.hasPrefix("::ffff:127.")
    }

    /// `response`, held until `promise` is completed (see `DeferredResponse`): the handler's
    /// provisional answer, sent if the promise completes without a replacement.
    package mutating func deferring(_ response: HTTPResponse, until promise: DeferredResponse) -> HTTPResponse {
        delivery.deferred = promise
        return response
    }
}
