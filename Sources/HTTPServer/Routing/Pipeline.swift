/// The declared stages, composed once into the three entry points the transport calls: one
/// closure call per request or message into the chain.
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

    /// The entry points of `stages` (a concrete type: its calls are direct).
    package init<S: Stage>(_ stages: S) {
        self.init(request: { stages.handle($0, &$1, $2) }, message: { stages.handle($0, &$1, $2) }, admission: { stages.admit($0, $1) })
    }

    /// The three entry points over one concrete chain of stages, made where the chain is
    /// declared (the composition root), so every stage call in it is direct. (A generic chain
    /// composed here, after Hummingbird's `_Middleware2`, was left unspecialised across the module
    /// boundary and looked its type metadata up on every request: +13 % on rows.)
    package init(request: @escaping @Sendable (HTTPRequest, inout RequestContext, RequestNext) -> HTTPResponse,
                 message: @escaping @Sendable (WebSocketPayload, inout MessageContext, MessageNext) -> WebSocketReply,
                 admission: @escaping @Sendable (HTTPRequest, RequestContext) -> WebSocketAdmission?) {
        self.request = request
        self.message = message
        self.admission = admission
    }
}
