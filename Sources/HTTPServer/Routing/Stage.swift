/// One cross-cutting step around every answer, of one shape for both protocols (after
/// Hummingbird 2's `MiddlewareProtocol`): it gets the request (or a WebSocket message), its
/// context `inout`, and the rest of the pipeline, and may look at, replace or re-deliver the
/// answer. `next` answers the route (the owner is already decided, in the context); call it at
/// most once, on the calling thread.
///
/// Stages are concrete structs, composed once and statically by a fixed chain in the composition
/// root (`MockStages`), so a request pays no existential and a direct call per stage; the
/// transport calls the chain through one closure (`Pipeline`). A stage with nothing to do for
/// messages or handshakes leaves the defaults.
@usableFromInline package protocol Stage: Sendable {
    /// A plain HTTP request (404 and 405 included).
    func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse
    /// One WebSocket message on an open connection; default: `next`.
    func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply
    /// A valid WebSocket handshake, before its 101: nil lets the next stage say; default: nil.
    func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission?
}

extension Stage {
    @inlinable package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                                   _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        next(message, &context)
    }

    @inlinable package func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? { nil }
}
