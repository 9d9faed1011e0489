/// Answers one WebSocket message with zero or more messages, in order.
package typealias WebSocketMessageHandler = @Sendable (WebSocketMessage) -> [WebSocketMessage]

/// One application-level WebSocket message (the codec has already joined its fragments), decoded:
/// text as a `String`. The simple handler form and test clients use it; the transport carries
/// messages as `WebSocketPayload` (bytes) and decodes this only for a handler that asks for it.
package enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
}
