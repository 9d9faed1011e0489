/// Identifies one connection of one loop: the descriptor plus a serial, so a stale handle never
/// reaches a later connection that reuses the descriptor.
struct ConnectionID: Sendable, Hashable {
    var fd: Int32
    var serial: UInt64
}

/// A command for a connection, posted from any thread.
enum ConnectionCommand: Sendable {
    case send(WebSocketPayload)
    case close(WebSocketCloseRequest)
    /// A deferred answer of this connection was completed (its slot's token).
    case deferredReady(UInt64)
    /// The server's push budget is used up and this connection holds the most: drop and close.
    case shed
}
