/// One cross-cutting step around every answer, of one shape for both protocols (after
/// Hummingbird 2's `MiddlewareProtocol`): it gets the request (or a WebSocket message), its
/// context `inout`, and the rest of the pipeline, and may look at, replace or re-deliver the
/// answer. `next` answers the route (the owner is already decided, in the context); call it at
/// most once, on the calling thread.
///
/// Stages are concrete structs, composed once and statically (`StageBuilder`, `Pipeline`), so
/// a request pays no existential and, with `@inlinable` fast paths, no call per stage: the chain
/// is specialised where it is declared (the composition root). A stage with nothing to do for
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

/// Two stages in order: `outer` runs first and its `next` is `inner`.
package struct StageChain<Outer: Stage, Inner: Stage>: Stage {
    @usableFromInline let outer: Outer
    @usableFromInline let inner: Inner

    @inlinable package init(_ outer: Outer, _ inner: Inner) {
        self.outer = outer
        self.inner = inner
    }

    @inlinable package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                                   _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        outer.handle(request, &context) { request, context in inner.handle(request, &context, next) }
    }

    @inlinable package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                                   _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        outer.handle(message, &context) { message, context in inner.handle(message, &context, next) }
    }

    @inlinable package func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? {
        outer.admit(request, context) ?? inner.admit(request, context)
    }
}

/// A stage that may be off (durability without `--state`): nil passes everything on.
extension Optional: Stage where Wrapped: Stage {
    @inlinable package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                                   _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        guard let stage = self else { return next(request, &context) }
        return stage.handle(request, &context, next)
    }

    @inlinable package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                                   _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard let stage = self else { return next(message, &context) }
        return stage.handle(message, &context, next)
    }

    @inlinable package func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? {
        self?.admit(request, context)
    }
}

/// Stages listed one a line, outermost first, composed into one concrete `StageChain` type.
@resultBuilder
package enum StageBuilder {
    @inlinable package static func buildPartialBlock<S: Stage>(first: S) -> S { first }

    @inlinable package static func buildPartialBlock<A: Stage, B: Stage>(accumulated: A, next: B) -> StageChain<A, B> {
        StageChain(accumulated, next)
    }
}
