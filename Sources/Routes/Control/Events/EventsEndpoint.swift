import HTTPServer

extension ControlPlane {
    /// The path of the events WebSocket (docs/control-plane.md).
    package static let eventsPath = "/__mock/events"

    /// `GET /__mock/events`: a WebSocket that sends every event of the hub as one text message
    /// `{"kind", "at", "data"}`, in order. Each socket has its own `EventPump`, so publishers never
    /// wait for it; a subscriber that does not read is closed by the transport once its unread
    /// output passes the cap (or by the hub if the pump itself falls behind), and its pump is
    /// cancelled when the socket closes. Messages from the client are ignored.
    /// A handshake the admin group's guard refuses (browsers do not apply CORS to WebSockets)
    /// falls through to the HTTP route (`upgradeToEvents`), which gives the guard's reason.
    package func eventsEndpoint() -> WebSocketEndpoint {
        let hub = events
        let pumps = Locked<[ObjectIdentifier: EventPump]>([:])
        return WebSocketEndpoint(onOpen: { connection in
            let pump = EventPump(hub: hub, send: { events in connection.send(contentsOf: events.map { WebSocketPayload(utf8Text: $0.json) }) }, onDropped: {
                connection.close(code: WebSocketCloseCode.policyViolation, reason: "event subscriber fell behind")
            })
            pumps.withLock { $0[ObjectIdentifier(connection)] = pump }
        }, onMessage: { _, _ in .none }, onClose: { connection in
            pumps.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }?.cancel()
        })
    }

    /// `GET /__mock/events` without a handshake (or with one the guard refused): told to upgrade.
    package static var upgradeToEvents: HTTPHandler {
        { _, _ in
            var response = HTTPResponse.text(.upgradeRequired, "This endpoint speaks WebSocket only: open it with an Upgrade: websocket handshake to receive one JSON message per event.\n")
            response.headers.set("Upgrade", "websocket")
            return response
        }
    }
}
