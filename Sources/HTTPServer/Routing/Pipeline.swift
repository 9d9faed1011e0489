/// The declared stages, composed once (`init`, specialised where the stages are listed) into the
/// three entry points the transport calls: one closure call per request or message, whatever
/// the number of stages.
package struct Pipeline: Sendable {
    /// What answers the route behind the stages.
    package typealias RequestNext = (HTTPRequest, inout RequestContext) -> HTTPResponse
    package typealias MessageNext = (WebSocketPayload, inout MessageContext) -> WebSocketReply

    /// Every plain HTTP request, around the route's answer.
    package let request: @Sendable (HTTPRequest, inout RequestContext, RequestNext) -> HTTPResponse
    /// Every WebSocket message, around its endpoint's `onMessage`.
    package let message: @Sendable (WebSocketPayload, inout MessageContext, MessageNext) -> WebSocketReply
    /// A valid handshake on a WebSocket route, before the 101 (nil: accept at once).
    package let admission: @Sendable (HTTPRequest, RequestContext) -> WebSocketAdmission?

    /// The stages `build` lists, outermost first.
    @inlinable package init<S: Stage>(@StageBuilder _ build: () -> S) {
        self.init(stages: build())
    }

    @inlinable package init<S: Stage>(stages: S) {
        request = { request, context, next in stages.handle(request, &context, next) }
        message = { message, context, next in stages.handle(message, &context, next) }
        admission = { request, context in stages.admit(request, context) }
    }
}
