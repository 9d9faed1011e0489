/// A WebSocket route's application side: called on the connection's event-loop thread, so it must
/// not block. `onOpen` gets a handle that can push and close from any thread. Messages arrive and
/// replies leave as payload bytes (a text message's UTF-8 as received).
///
/// Each message comes with its context (`MessageContext`: the handle, the owner, its arrival),
/// the connection's own, reused: a reply that is held (a delay, a deferral) or carries a log line
/// says so there. The pipeline's stages (`Pipeline.message`) run around `onMessage`.
package struct WebSocketEndpoint: Sendable {
    package var onOpen: @Sendable (WebSocketConnection) -> Void
    package var onMessage: @Sendable (WebSocketPayload, inout MessageContext) -> WebSocketReply
    package var onClose: @Sendable (WebSocketConnection) -> Void

    package init(onOpen: @escaping @Sendable (WebSocketConnection) -> Void = { _ in },
                onMessage: @escaping @Sendable (WebSocketPayload, inout MessageContext) -> WebSocketReply,
                onClose: @escaping @Sendable (WebSocketConnection) -> Void = { _ in }) {
        self.onOpen = onOpen
        self.onMessage = onMessage
        self.onClose = onClose
    }

    /// The simple form: each message, decoded, is answered with zero or more messages, at once.
    package init(_ handler: @escaping WebSocketMessageHandler) {
        self.init(onMessage: { message, _ in WebSocketReply(messages: handler(message.message).map(WebSocketPayload.init)) })
    }
}

/// Whether a valid handshake becomes a WebSocket, and when (a stage's `admit`).
@usableFromInline package enum WebSocketAdmission: Sendable, Equatable {
    /// Send the 101 after this many nanoseconds (0: at once).
    case accept(delayNanos: UInt64)
    /// No upgrade: answer the request as a plain HTTP request.
    case answerAsHTTP
}

/// What a WebSocket endpoint answers to one message: its messages and a close; how it is
/// delivered (held, deferred) and logged is in the message's context.
///
/// `@usableFromInline`: used on hot paths in other targets (the gateway builds one per message);
/// the optimiser copies into another module only the bodies it may see from there (README,
/// "Layout").
@usableFromInline package struct WebSocketReply: Sendable, Equatable {
    /// Sent in order (nothing when empty: "no reply").
    package var messages: [WebSocketPayload]
    /// Close the connection with this code and reason after the messages.
    package var close: WebSocketCloseRequest?

    @usableFromInline
    package init(messages: [WebSocketPayload] = [], close: WebSocketCloseRequest? = nil) {
        self.messages = messages
        self.close = close
    }

    /// No reply at all.
    package static let none = WebSocketReply()
}

/// A close frame the server sends: status code (RFC 6455 §7.4) and reason.
@usableFromInline package struct WebSocketCloseRequest: Sendable, Equatable {
    package var code: UInt16
    package var reason: String
    package init(code: UInt16, reason: String = "") {
        self.code = code
        self.reason = reason
    }
}

/// A handle on one open WebSocket. `send` and `close` may be called from any thread: they are
/// queued to the connection's event loop, which is woken. Output is bounded like any other: a
/// peer that does not read is closed once its pending output passes the hard cap.
package final class WebSocketConnection: Sendable {
    /// The peer's IP address as text.
    package let remoteAddress: String
    /// The request path the WebSocket was opened on.
    package let path: String
    let id: ConnectionID
    private let mailbox: LoopMailbox
    private let open = Locked(true)

    init(id: ConnectionID, remoteAddress: String, path: String, mailbox: LoopMailbox) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.path = path
        self.mailbox = mailbox
    }

    /// False once the connection has closed (sends are then dropped).
    package var isOpen: Bool { open.withLock { $0 } }

    /// Queues a message for the peer.
    package func send(_ message: WebSocketMessage) {
        guard isOpen else { return }
        mailbox.post(id, .send(WebSocketPayload(message)))
    }

    /// Queues several messages at once, in order: one hand-off to the loop and one write for all.
    /// In payload form: text this server wrote as UTF-8 (an event's JSON) is sent as it is.
    package func send(contentsOf messages: [WebSocketPayload]) {
        guard isOpen, !messages.isEmpty else { return }
        mailbox.post(id, messages.map { .send($0) })
    }

    /// Queues a close frame with `code` and `reason`; the connection closes once it is written.
    package func close(code: UInt16 = 1000, reason: String = "") {
        guard isOpen else { return }
        mailbox.post(id, .close(WebSocketCloseRequest(code: code, reason: reason)))
    }

    func markClosed() { open.withLock { $0 = false } }
}

extension WebSocketEndpoint {
    /// Runs `onMessage` outside any connection (unit tests of an endpoint): the replies only, decoded.
    package func callAsFunction(_ message: WebSocketMessage) -> [WebSocketMessage] {
        let detached = WebSocketConnection(id: ConnectionID(fd: -1, serial: 0), remoteAddress: "", path: "",
                                           mailbox: LoopMailbox(wake: {}))
        var context = MessageContext(connection: detached, owner: nil)
        context.begin(arrivedAt: Sys.monotonicNanos())
        return onMessage(WebSocketPayload(message), &context).messages.map(\.message)
    }

    /// Runs `onMessage` behind `pipeline`'s stages outside any connection, as a message on a
    /// path `owner` owns (tests of the stages): the replies only, decoded.
    package func callAsFunction(_ message: WebSocketMessage, through pipeline: Pipeline, owner: RouteOwner?) -> [WebSocketMessage] {
        let detached = WebSocketConnection(id: ConnectionID(fd: -1, serial: 0), remoteAddress: "", path: "",
                                           mailbox: LoopMailbox(wake: {}))
        var context = MessageContext(connection: detached, owner: owner)
        context.begin(arrivedAt: Sys.monotonicNanos())
        return pipeline.message(WebSocketPayload(message), &context, onMessage).messages.map(\.message)
    }
}
