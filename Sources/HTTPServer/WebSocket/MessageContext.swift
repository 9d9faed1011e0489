/// What the transport and the stages know about one WebSocket message, kept beside it as
/// `RequestContext` is beside a request: the peer's handle, the path's owner (the handshake's),
/// when the message arrived, and what the stages and the endpoint say about the reply besides
/// its messages (a delay, a deferral, its log line, who is told what was sent, who answered).
/// The connection makes one at the handshake and reuses it for every message (`begin`), passing
/// it `inout`: no allocation and no copy per message.
@usableFromInline package struct MessageContext {
    /// The open WebSocket: push, close, the peer's address, the path it was opened on.
    package let connection: WebSocketConnection
    /// The system owning the endpoint's path, as the router decided it for the handshake.
    package let owner: RouteOwner?
    /// When the message arrived (`SystemTime.monotonicNanos`): the one origin of its log line's
    /// duration and its journal entry's.
    package private(set) var arrivedAt: UInt64 = 0
    /// Hold the reply (and its close) this long on a loop timer; later replies do not wait for it.
    package var delayNanos: UInt64 = 0
    /// Hold the reply (and later ones) until this promise is completed, from any thread: with
    /// nil, the reply's messages are sent; with a response, its body as one text message instead.
    /// At its timeout, `onTimeout`'s body (or the messages) is sent.
    package var deferred: DeferredResponse?
    /// The message's log line (written, with its duration, once the reply goes out); nil: none.
    package var log: MessageLog?
    /// Told the messages actually sent in answer (a deferred reply's replacement), on the loop
    /// thread, once they are queued (or, for a held reply whose connection goes away first,
    /// then): the journal records a held reply here.
    package var onSent: (@Sendable ([WebSocketPayload]) -> Void)?
    /// A stage that answered instead of the endpoint, or changed its reply (a fault rule).
    package var answeredBy: Substitute?
    /// The message read once by its system's vocabulary, when a stage needed it (message fault
    /// rules): the endpoint answers from it rather than parsing the message again.
    package var reading: MessageReading?
    /// The last message's line, kept for the next one (see `messageLog(system:)`).
    private var spareLog: MessageLog?

    package init(connection: WebSocketConnection, owner: RouteOwner?) {
        self.connection = connection
        self.owner = owner
    }

    /// What the connection needs of the context to send a reply: read once, after the stages.
    struct Sending {
        let delayNanos: UInt64
        let deferred: DeferredResponse?
        let onSent: (@Sendable ([WebSocketPayload]) -> Void)?
        let log: MessageLog?
    }

    /// Begins the next message, has `run` (the stages and the endpoint) answer it with this
    /// context, and says how the reply is to be sent. Called on the connection's stored context
    /// in place (`messageContext?.answer(…)`), so the context is neither copied nor moved.
    mutating func answer(_ message: WebSocketPayload, arrivedAt now: UInt64,
                         _ run: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> (WebSocketReply, Sending) {
        begin(arrivedAt: now)
        let reply = run(message, &self)
        return (reply, Sending(delayNanos: delayNanos, deferred: deferred, onSent: onSent, log: log))
    }

    /// Starts the next message: what the last one's stages wrote is cleared.
    mutating func begin(arrivedAt now: UInt64) {
        arrivedAt = now
        delayNanos = 0
        if deferred != nil { deferred = nil }
        if log != nil { log = nil }
        if onSent != nil { onSent = nil }
        if answeredBy != nil { answeredBy = nil }
        if reading != nil { reading = nil }
    }

    /// An empty log line of `system`'s for this message, set as its `log`. The object is reused:
    /// by the time the next message arrives, the reply that carried the last one has been sent
    /// and let go of it (a reply still held, by a delay, keeps its own and the next message gets
    /// a new one), which saves an allocation per message.
    package mutating func messageLog(system: String) -> MessageLog {
        if isKnownUniquelyReferenced(&spareLog), let line = spareLog {
            line.reset(system: system)
            log = line
            return line
        }
        let line = MessageLog(system: system)
        spareLog = line
        log = line
        return line
    }
}
