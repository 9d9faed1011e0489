/// A WebSocket route's application side: called on the connection's event-loop thread, so it must
/// not block. `onOpen` gets a handle that can push and close from any thread. Messages arrive and
/// replies leave as payload bytes (a text message's UTF-8 as received).
package struct WebSocketEndpoint: Sendable {
    package var onOpen: @Sendable (WebSocketConnection) -> Void
    package var onMessage: @Sendable (WebSocketPayload, WebSocketConnection) -> WebSocketReply
    package var onClose: @Sendable (WebSocketConnection) -> Void
    /// Asked before a valid handshake is accepted (nil: accept at once): the 101 may be held, or
    /// the request answered as a plain HTTP request (through the middleware) instead.
    package var admission: (@Sendable (HTTPRequest, RequestContext) -> WebSocketAdmission)?

    package init(onOpen: @escaping @Sendable (WebSocketConnection) -> Void = { _ in },
                onMessage: @escaping @Sendable (WebSocketPayload, WebSocketConnection) -> WebSocketReply,
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

/// Whether a valid handshake becomes a WebSocket, and when.
package enum WebSocketAdmission: Sendable, Equatable {
    /// Send the 101 after this many nanoseconds (0: at once).
    case accept(delayNanos: UInt64)
    /// No upgrade: answer the request as a plain HTTP request.
    case answerAsHTTP
}

/// What a WebSocket endpoint answers to one message.
///
/// `@usableFromInline`: used on hot paths in other targets (the gateway builds one per message);
/// the optimiser copies into another module only the bodies it may see from there (README,
/// "Layout").
@usableFromInline package struct WebSocketReply: Sendable, Equatable {
    /// Sent in order (nothing when empty: "no reply").
    package var messages: [WebSocketPayload]
    /// Hold the reply (and the close) this long on a loop timer; later replies do not wait for it.
    package var delayNanos: UInt64
    /// Close the connection with this code and reason after the messages.
    package var close: WebSocketCloseRequest?
    /// Hold the reply (and later ones) until this promise is completed, from any thread: with
    /// nil, these messages are sent; with a response, its body as one text message instead.
    /// At its timeout, `onTimeout`'s body (or these messages) is sent.
    package var deferred: DeferredResponse?
    /// The message's log line (written, with its duration, once the reply goes out); nil: none.
    package var log: MessageLog?

    @usableFromInline
    package init(messages: [WebSocketPayload] = [], delayNanos: UInt64 = 0, close: WebSocketCloseRequest? = nil,
                 deferred: DeferredResponse? = nil) {
        self.messages = messages
        self.delayNanos = delayNanos
        self.close = close
        self.deferred = deferred
    }

    @usableFromInline package static func == (a: WebSocketReply, b: WebSocketReply) -> Bool {
        a.messages == b.messages && a.delayNanos == b.delayNanos && a.close == b.close && a.deferred === b.deferred
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
    /// The last message's line, kept for the next one (see `messageLog`); loop thread only.
    nonisolated(unsafe) private var spareLog: MessageLog?
    /// When the message being answered arrived; loop thread only (one owner: no dynamic
    /// exclusivity check).
    @exclusivity(unchecked) nonisolated(unsafe) var arrival: UInt64 = 0

    /// When the message being answered arrived (`SystemTime.monotonicNanos`), stamped by the
    /// connection before `onMessage`: the one origin of the message's log line and journal entry.
    /// Read only from `onMessage`, on the connection's loop thread. A getter, not the stored
    /// property: read directly from another module, the field got a dynamic exclusivity check there.
    package var messageArrivedAt: UInt64 { arrival }

    /// The hook `whenReplySent` set for the reply being made; loop thread only. On the handle, not
    /// the reply: a field more on every reply cost more than the hook saves.
    @exclusivity(unchecked) nonisolated(unsafe) var replySent: (@Sendable ([WebSocketPayload]) -> Void)?

    /// Tells `body` the messages actually sent in answer to the message being answered (a deferred
    /// reply's replacement), on the loop thread, once they are queued (or, for a held reply whose
    /// connection goes away first, then): the journal records a held reply here. Call it from
    /// `onMessage`, for the reply it returns.
    package func whenReplySent(_ body: @escaping @Sendable ([WebSocketPayload]) -> Void) { replySent = body }

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

    /// An empty log line of `system`'s for the message being answered, to be carried by its
    /// reply. The object is reused: by the time the next message arrives, the reply that carried
    /// the last one has been sent and let go of it (a reply still held, by a delay, keeps its own
    /// and the next message gets a new one), which saves an allocation per message. Only from
    /// `onMessage`, which runs on the connection's loop thread, as the line is read there.
    package func messageLog(system: String) -> MessageLog {
        if isKnownUniquelyReferenced(&spareLog), let log = spareLog {
            log.reset(system: system)
            return log
        }
        let log = MessageLog(system: system)
        spareLog = log
        return log
    }
}

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

/// The queue other threads post connection commands to, and a new responder
/// (`Server.replaceResponder`); the loop drains both with one lock when woken.
final class LoopMailbox: Sendable {
    private struct Inbox {
        var commands: [(ConnectionID, ConnectionCommand)] = []
        var swap: ResponderSwap?
        /// The loop has finished: a swap posted now has nobody to take it.
        var closed = false
    }

    private let inbox = Locked(Inbox())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    func post(_ id: ConnectionID, _ command: ConnectionCommand) {
        let first = inbox.withLock { i -> Bool in
            i.commands.append((id, command))
            return i.commands.count == 1
        }
        // One wake-up per batch: the loop takes the whole queue at once.
        if first { wake() }
    }

    /// Several commands for one connection, under one lock and at most one wake-up.
    func post(_ id: ConnectionID, _ batch: [ConnectionCommand]) {
        let first = inbox.withLock { i -> Bool in
            let wasEmpty = i.commands.isEmpty
            i.commands.append(contentsOf: batch.lazy.map { (id, $0) })
            return wasEmpty
        }
        if first { wake() }
    }

    /// Hands the loop a new responder. A swap the loop has not taken yet is replaced (the newer
    /// one wins) and counted as taken; after `close` the swap is counted at once.
    func post(_ swap: ResponderSwap) {
        let (superseded, open) = inbox.withLock { i -> (ResponderSwap?, Bool) in
            guard !i.closed else { return (nil, false) }
            defer { i.swap = swap }
            return (i.swap, true)
        }
        superseded?.loopTookIt()
        if open { wake() } else { swap.loopTookIt() }
    }

    /// The commands posted since the last take, and the newest responder if one was posted.
    func take() -> (commands: [(ConnectionID, ConnectionCommand)], swap: ResponderSwap?) {
        inbox.withLock { i in
            if i.commands.isEmpty && i.swap == nil { return ([], nil) }
            defer {
                i.commands.removeAll()
                i.swap = nil
            }
            return (i.commands, i.swap)
        }
    }

    /// The loop has stopped: a pending swap (returned) and later ones are counted as taken.
    func close() -> ResponderSwap? {
        inbox.withLock { i in
            i.closed = true
            defer { i.swap = nil }
            return i.swap
        }
    }
}

extension WebSocketEndpoint {
    /// Runs `onMessage` outside any connection (unit tests of an endpoint): the replies only, decoded.
    package func callAsFunction(_ message: WebSocketMessage) -> [WebSocketMessage] {
        let detached = WebSocketConnection(id: ConnectionID(fd: -1, serial: 0), remoteAddress: "", path: "",
                                           mailbox: LoopMailbox(wake: {}))
        detached.arrival = Sys.monotonicNanos()
        return onMessage(WebSocketPayload(message), detached).messages.map(\.message)
    }
}
