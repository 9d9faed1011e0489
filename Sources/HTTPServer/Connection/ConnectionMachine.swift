/// One client connection's protocol state, without sockets: bytes in, time passed and output
/// written go in; the output to write, whether to read, and how to close come out. The event
/// loop performs those actions; tests drive the machine with byte sequences and a moved clock.
final class ConnectionMachine {
    enum Phase: Equatable {
        case http
        case webSocket
        /// Our side is shut for writing; the peer is drained until it closes or the deadline passes.
        case lingering(deadline: UInt64)
        case closed
    }

    /// How the loop must end the connection.
    enum CloseRequest: Equatable {
        case none
        /// Write the pending output, then shut down writing and linger.
        case afterFlush
        /// Close now, without writing what is pending.
        case now
        /// Write the pending output, then close with a TCP reset (SO_LINGER 0).
        case reset
        /// Reset now, discarding what is pending (a peer that does not read: its buffers go at once).
        case abort
    }

    /// Output waiting for its release time: a delayed answer, and what must not overtake it.
    /// HTTP answers (the 101 too), close frames and replies waiting for the disk are `ordered`:
    /// released in turn, and nothing behind one overtakes it. A delayed WebSocket reply is not: it
    /// holds only itself, so later replies, pushes and pongs go out when they are ready (clients
    /// match replies by their own ids).
    private struct Held {
        var releaseAt: UInt64
        var bytes: [UInt8]
        var then: CloseRequest
        var log: RequestLogEntry?
        var startedAt: UInt64
        /// A deferred answer not yet completed (`bytes` is empty; `releaseAt` is its deadline).
        var slot: DeferredSlot?
        var ordered = true
        /// A WebSocket message's line, written when its reply goes out.
        var messageLog: MessageLog?
        /// The answer's `Delivery.onSent`, given the answer: run when it goes out (or is dropped).
        var sent: (@Sendable () -> Void)? = nil
        /// A piece of a dribbled body (told to the test seam as it is written).
        var dribbled = false
    }

    /// How to encode an answer: what its request asked for.
    private struct AnswerShape {
        var version: HTTPVersion
        var keepAlive: Bool
        var omitBody: Bool
        var method: String
        var path: String
    }

    /// A deferred answer's place: its promise, the handler's response and how to encode it.
    private struct DeferredSlot {
        var token: UInt64
        var promise: DeferredResponse
        var response: HTTPResponse
        /// The answer's context: its delivery, owner and log level apply to a replacement too.
        var context: RequestContext
        var shape: AnswerShape
        /// A WebSocket reply held instead of an HTTP answer (`response` is then unused).
        var reply: WebSocketReply? = nil
        /// The held reply's message context's hook (`MessageContext.onSent`).
        var replySent: (@Sendable ([WebSocketPayload]) -> Void)? = nil
        /// The held reply's delay and log line, from its message context.
        var replyDelay: UInt64 = 0
        var replyLog: MessageLog? = nil
    }

    let id: ConnectionID
    let remoteAddress: String
    let localPort: Int
    // Strong: the environment holds no connection, so there is no cycle, and an `unowned` read
    // cost a checked retain on every access.
    private let env: ConnectionEnvironment

    // Stored state is touched only by its loop's thread (single owner), so the runtime's dynamic
    // exclusivity checks (measurable per access, several per request: BENCHMARKS.md) are switched off.
    @exclusivity(unchecked) private(set) var phase = Phase.http
    @exclusivity(unchecked) private(set) var close = CloseRequest.none
    /// Reading stopped because output (or held answers) passed the high-water mark.
    @exclusivity(unchecked) private(set) var outputPaused = false

    @exclusivity(unchecked) private var parser: HTTPRequestParser
    /// Bytes received but not yet parsed: a partial request head, or requests held back by backpressure.
    @exclusivity(unchecked) private var inbound: [UInt8] = []
    /// Encoded output not yet written, from `written` on.
    @exclusivity(unchecked) private var outbound: [UInt8] = []
    @exclusivity(unchecked) private var written = 0
    @exclusivity(unchecked) private var held: [Held] = []
    /// The last deferred slot's token.
    @exclusivity(unchecked) private var deferredSerial: UInt64 = 0

    @exclusivity(unchecked) private var lastActivity: UInt64
    /// When the first byte of the current, unfinished request arrived; 0 between requests.
    @exclusivity(unchecked) private var requestStartedAt: UInt64 = 0
    /// When pending output last went from none to some, or last shrank.
    @exclusivity(unchecked) private var lastOutputProgress: UInt64 = 0

    /// The RFC 6455 state; meaningful in the `.webSocket` phase only. Not optional: reads and
    /// in-place updates through an optional copied the whole session twice per message.
    @exclusivity(unchecked) private var session = WebSocketSession(maxMessageBytes: 0)
    @exclusivity(unchecked) private var endpoint: WebSocketEndpoint?
    /// The handle the WebSocket endpoint was given at open.
    @exclusivity(unchecked) private(set) var webSocket: WebSocketConnection?
    /// The stages every message goes through (the responder's at the handshake); nil: none.
    @exclusivity(unchecked) private var messagePipeline: Pipeline?
    /// Every message's context: made at the handshake, reused (`begin`) for each message.
    @exclusivity(unchecked) private var messageContext: MessageContext?
    @exclusivity(unchecked) private var pingSentAt: UInt64 = 0
    /// This connection counts against the WebSocket share (released when it closes).
    @exclusivity(unchecked) private var holdsWebSocketSlot = false
    @exclusivity(unchecked) private var partialFrameSince: UInt64 = 0
    /// Bytes of pushed frames charged to the server's push budget and not yet given back.
    @exclusivity(unchecked) private var pushCharged = 0
    /// Offsets in `outbound` where a frame begins, recorded (a few KiB apart) only while output is
    /// waiting: where unsent frames can be cut off without splitting one.
    @exclusivity(unchecked) private var frameStarts: [Int] = []

    /// A buffer up to this capacity is kept for the connection's next answers; a bigger one (a
    /// pipelined burst) is given back once drained, so idle connections hold little.
    private static let retainedBuffer = 16 * 1024

    /// On a slot kept for a full table: only these paths are answered (then the connection closes).
    private let onlyPaths: Set<String>?

    init(id: ConnectionID, remoteAddress: String, localPort: Int, environment: ConnectionEnvironment, onlyPaths: Set<String>? = nil) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.onlyPaths = onlyPaths
        env = environment
        parser = HTTPRequestParser(limits: environment.settings.limits)
        lastActivity = environment.now
    }

    // MARK: - What the loop asks

    var pendingOutput: Int { outbound.count - written }

    /// Whether the loop should watch for readable data (lingering connections are drained too).
    var wantsRead: Bool {
        switch phase {
        case .closed: return false
        case .lingering: return true
        case .http, .webSocket: return !outputPaused && close == .none
        }
    }

    /// The earliest release time of a held answer that may go out next; 0 when none is held.
    var nextRelease: UInt64 {
        guard let first = held.first else { return 0 }
        if first.ordered { return first.releaseAt }
        // Unordered replies before the first ordered entry: that one waits for them (a time of
        // its own would wake the loop for nothing, again and again).
        var next = first.releaseAt
        for entry in held.dropFirst() {
            if entry.ordered { break }
            next = min(next, entry.releaseAt)
        }
        return next
    }

    /// True while part of a request has arrived but not all of it.
    var isMidRequest: Bool { phase == .http && (!inbound.isEmpty || parser.isMidRequest) }

    /// Calls `body` with the bytes still to write.
    func withPendingOutput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        outbound.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[written...])) }
    }

    // MARK: - Events

    /// Bytes read from the peer.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = env.now
        switch phase {
        case .closed, .lingering:
            return  // drained and dropped
        case .webSocket:
            pingSentAt = 0
            feedWebSocket(bytes)
            afterWebSocketInput()
        case .http:
            if requestStartedAt == 0 { requestStartedAt = env.now }
            if inbound.isEmpty {
                let used = processHTTP(bytes)
                if used < bytes.count && close == .none && phase == .http {
                    inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
                }
            } else {
                inbound.append(contentsOf: bytes)
                drainInbound()
            }
            afterHTTPInput()
        }
    }

    /// The peer closed its side.
    func peerClosed() {
        if case .http = phase, isMidRequest {
            env.logger.debug("client \(remoteAddress) went away mid-request")
        }
        close = .now
    }

    /// The loop wrote `count` bytes of the pending output.
    func didWrite(_ count: Int) {
        guard count > 0 else { return }
        written += count
        lastOutputProgress = env.now
        if pushCharged > 0 { releasePushCharge(keeping: outbound.count - written) }
        guard written >= outbound.count else { return }
        if !frameStarts.isEmpty { frameStarts.removeAll(keepingCapacity: true) }
        // Drained: give big buffers back, so a burst does not pin memory.
        if outbound.capacity > ConnectionMachine.retainedBuffer {
            env.releasedBytes &+= outbound.capacity
            outbound = []
        } else {
            outbound.removeAll(keepingCapacity: true)
        }
        written = 0
        if outputPaused && held.count < env.settings.maxHeldAnswers && close == .none {
            outputPaused = false
            if phase == .http && !inbound.isEmpty {
                drainInbound()
                afterHTTPInput()
            }
        }
    }

    /// The loop has written everything and shut its side: drain the peer until the deadline.
    func startLingering() {
        let span = env.draining ? env.settings.drainingLinger : env.settings.linger
        phase = .lingering(deadline: env.now + span)
        close = .none
        inbound = []
        dropHeld()
    }

    /// Time passed (`env.now` moved): releases held answers and applies every timeout.
    func tick() {
        let now = env.now
        if !held.isEmpty { releaseDue() }
        switch phase {
        case .closed:
            return
        case .lingering(let deadline):
            if now >= deadline { close = .now }
            return
        case .http, .webSocket:
            break
        }
        if close == .now || close == .abort { return }
        if pendingOutput > 0 && now - lastOutputProgress > env.settings.sendTimeout {
            env.logger.warning("closing \(remoteAddress): \(pendingOutput) bytes unread for \(seconds(env.settings.sendTimeout)) s (send timeout)")
            close = .abort
            return
        }
        if phase == .webSocket {
            webSocketTimers(now)
            return
        }
        guard close == .none, held.isEmpty else { return }
        if requestStartedAt != 0 && !outputPaused {
            if now - requestStartedAt > env.settings.headerTimeout {
                inbound = []
                requestStartedAt = 0
                answerAndClose(.requestTimeout, "request not complete within \(seconds(env.settings.headerTimeout)) seconds")
            }
        } else if requestStartedAt == 0 && pendingOutput == 0 && now - lastActivity > env.settings.idleTimeout {
            close = .now
        }
    }

    /// The server is stopping: WebSockets get close 1001; idle HTTP connections close at once;
    /// others finish the request in flight (its answer carries `Connection: close`).
    func beginDrain() {
        switch phase {
        case .webSocket:
            guard close == .none else { return }
            appendOutput(session.initiateClose(code: WebSocketCloseCode.goingAway, reason: "server shutting down"))
            close = .afterFlush
        case .http:
            if close == .none && !isMidRequest && pendingOutput == 0 && held.isEmpty { close = .now }
        case .lingering(let deadline):
            phase = .lingering(deadline: min(deadline, env.now + env.settings.drainingLinger))
        case .closed:
            break
        }
    }

    /// A command posted to this connection's WebSocket handle from any thread.
    func command(_ command: ConnectionCommand) {
        if case .deferredReady(let token) = command {
            completeDeferred(token)
            return
        }
        guard phase == .webSocket, close == .none, !session.isClosing else { return }
        switch command {
        case .send(let message):
            var frame: [UInt8] = []
            message.appendFrame(to: &frame)
            guard env.pushBudget.charge(frame.count, to: id, mailbox: env.mailbox) else {
                shed()
                return
            }
            pushCharged += frame.count
            // A push is not held behind a delayed reply (only behind a held 101 or close).
            if held.isEmpty { appendOutput(frame) } else { emit(frame, delay: 0, then: .none, log: nil, start: env.now, ordered: false) }
        case .shed:
            shed()
        case .close(let request):
            let frame = session.initiateClose(code: request.code, reason: request.reason)
            if held.isEmpty { appendOutput(frame); if close == .none { close = .afterFlush } } else { hold(frame, delay: 0, then: .afterFlush) }
        case .deferredReady:
            break
        }
    }

    /// The loop closed the descriptor.
    func closed() {
        guard phase != .closed else { return }
        phase = .closed
        if holdsWebSocketSlot {
            holdsWebSocketSlot = false
            env.webSocketSlots.release()
        }
        env.releasedBytes &+= inbound.capacity + outbound.capacity
        inbound = []
        outbound = []
        frameStarts = []
        if pushCharged > 0 { releasePushCharge(keeping: 0) }
        dropHeld()
        if let handle = webSocket, let endpoint {
            handle.markClosed()
            endpoint.onClose(handle)
        }
    }

    // MARK: - HTTP

    private func drainInbound() {
        let used = inbound.withUnsafeBytes { processHTTP($0) }
        if close != .none || phase != .http {
            inbound = []
        } else if used > 0 {
            inbound.removeFirst(used)
            // A burst of pipelined requests must not pin its buffer once answered.
            if inbound.isEmpty && inbound.capacity > ConnectionMachine.retainedBuffer {
                env.releasedBytes &+= inbound.capacity
                inbound = []
            }
        }
    }

    private func afterHTTPInput() {
        if parser.continueRequested {
            parser.acknowledgeContinue()
            appendOutput(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if phase != .http || !isMidRequest { requestStartedAt = 0 }
    }

    /// Answers every complete request in `bytes`; returns how many bytes were consumed.
    private func processHTTP(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while close == .none && phase == .http {
            if pendingOutput > env.settings.outputHighWater || held.count >= env.settings.maxHeldAnswers {
                outputPaused = true
                break
            }
            switch parser.next(bytes, offset: &offset) {
            case .needMore:
                return offset
            case .failure(let failure):
                answerAndClose(failure.status, failure.reason, method: failure.method, path: failure.path)
                return bytes.count
            case .request(let request):
                handle(request)
                // The next pipelined request began with this read.
                requestStartedAt = env.now
                if phase == .webSocket && offset < bytes.count {
                    // Frames sent right behind the handshake belong to the WebSocket.
                    feedWebSocket(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    return bytes.count
                }
            }
        }
        return offset
    }

    private func handle(_ request: HTTPRequest) {
        if let onlyPaths, !onlyPaths.contains(request.path) {
            answerAndClose(.serviceUnavailable, "Too many open connections", method: request.method.rawValue, path: request.path)
            return
        }
        let start = requestStartedAt != 0 ? requestStartedAt : env.now
        // The request context: who asked, on which port, when it arrived (the log's and the
        // journal's origin); it travels beside the request and comes back with what the answer's
        // delivery, owner and log level are.
        var context = RequestContext(remoteAddress: remoteAddress, localPort: localPort, arrivedAt: start)
        context.behindHeldAnswer = !held.isEmpty
        switch env.responder.outcome(for: request, in: &context) {
        case .upgrade(let response, let endpoint, let owner):
            guard env.webSocketSlots.reserve() else {
                refuseWebSocket(request, start: start)
                return
            }
            holdsWebSocketSlot = true
            var bytes: [UInt8] = []
            encode(response, omitBody: false, keepAlive: true, version: request.version,
                   for: request.method.rawValue, request.path, into: &bytes)
            // An admission may hold the 101 (a fault's delay); frames sent behind it wait in order.
            emit(bytes, delay: context.delivery.delayNanos, then: .none, log: logEntry(request, response, context), start: start)
            phase = .webSocket
            session = WebSocketSession(maxMessageBytes: env.settings.maxWebSocketMessageBytes)
            self.endpoint = endpoint
            let handle = WebSocketConnection(id: id, remoteAddress: remoteAddress, path: request.path, mailbox: env.mailbox)
            webSocket = handle
            messagePipeline = env.responder.pipeline
            messageContext = MessageContext(connection: handle, owner: owner)
            endpoint.onOpen(handle)
        case .response(let response):
            deliver(response, context, for: request, start: start)
        }
    }

    /// The WebSocket share of the connection limit is used up: 503, so HTTP clients keep their room.
    private func refuseWebSocket(_ request: HTTPRequest, start: UInt64) {
        let limit = env.webSocketSlots.limit
        if env.webSocketSlots.shouldWarn(now: env.now) {
            env.logger.warning("WebSocket limit (\(limit)) reached; answering 503 — raise it with --max-websockets")
        }
        var refusal = HTTPResponse.jsonError(.serviceUnavailable, "Too many open WebSocket connections")
            .hinted("The mock keeps at most \(limit) WebSockets open (--max-websockets, by default half of --max-connections) so HTTP clients always get in; close some or raise the limit.")
        refusal.headers.set("Retry-After", "1")
        deliver(refusal, RequestContext(remoteAddress: remoteAddress, localPort: localPort, arrivedAt: start), for: request, start: start)
    }

    /// Queues an answer as its delivery directive says (at once, delayed, closed, reset, truncated).
    private func deliver(_ response: HTTPResponse, _ context: RequestContext, for request: HTTPRequest, start: UInt64) {
        let delivery = context.delivery
        let keepAlive = request.wantsKeepAlive && !env.draining && onlyPaths == nil && !delivery.closesConnection
        let omitBody = request.method == .head
        if delivery.delayNanos == 0 && delivery.action == .send && delivery.deferred == nil && held.isEmpty && delivery.dribble == nil {
            // The hot path: encode straight into the output buffer.
            let wasEmpty = pendingOutput == 0
            encode(response, omitBody: omitBody, keepAlive: keepAlive, version: request.version,
                   for: request.method.rawValue, request.path, into: &outbound)
            outputAdded(wasEmpty: wasEmpty)
            if !keepAlive { close = .afterFlush }
            if let onSent = delivery.onSent { onSent(response) }
            // Only when it is written, from the fields where they are (no entry built).
            if env.logger.isEnabled(context.logLevel) {
                env.logger.request(request, response, system: context.system, level: context.logLevel,
                                   durationNanos: Sys.monotonicNanos() &- start, remoteAddress: remoteAddress)
            }
            return
        }
        let shape = AnswerShape(version: request.version, keepAlive: keepAlive, omitBody: omitBody,
                                method: request.method.rawValue, path: request.path)
        if let promise = delivery.deferred {
            deferAnswer(response, context, promise, shape, start: start)
            return
        }
        let (bytes, then, entry) = encoded(response, context, shape)
        if let dribble = delivery.dribble, delivery.action == .send, !omitBody, !response.body.isEmpty {
            let chunks = HTTPResponseEncoder.sendsChunks(response, requestVersion: request.version)
            let bodyCount = chunks ? HTTPResponseEncoder.chunkedCount(response.body.count) : response.body.count
            // Shorter than its body: the head was refused and a 500 went instead, sent whole.
            if bytes.count >= bodyCount {
                return emitDribbled(head: bytes[..<(bytes.count - bodyCount)], body: response.body, chunks: chunks, dribble,
                                    delay: delivery.delayNanos, then: then, log: entry, start: start,
                                    sent: ConnectionMachine.sent(response, delivery.onSent))
            }
        }
        emit(bytes, delay: delivery.delayNanos, then: then, log: entry, start: start, sent: ConnectionMachine.sent(response, delivery.onSent))
    }

    /// The head with the first piece of the body, then each further piece, one every
    /// `totalNanos / pieces` on the loop's timers (held output, like a delay); the log and
    /// `onSent` go with the last. Each piece is a chunk of its own when the answer is chunked
    /// (WireMock's dribble), else Content-Length is the whole body's.
    private func emitDribbled(head: ArraySlice<UInt8>, body: [UInt8], chunks: Bool, _ dribble: Delivery.Dribble, delay: UInt64,
                              then: CloseRequest, log: RequestLogEntry, start: UInt64, sent: (@Sendable () -> Void)?) {
        let ends = dribble.boundaries(bodyCount: body.count)
        let step = dribble.totalNanos / UInt64(ends.count)
        var from = 0
        for (i, end) in ends.enumerated() {
            let last = i == ends.count - 1
            var piece = i == 0 ? Array(head) : []
            if chunks {
                HTTPResponseEncoder.appendChunked(body[from..<end], last: last, into: &piece)
            } else {
                piece.append(contentsOf: body[from..<end])
            }
            emit(piece, delay: delay &+ step &* UInt64(i + 1), then: last ? then : .none, log: last ? log : nil, start: start,
                 sent: last ? sent : nil, dribbled: true)
            from = end
        }
    }

    /// Encodes the answer to `method path`. When the encoder refused its head (CR, LF or NUL in a
    /// field or the reason) and a 500 went instead, the log says for which request, never the
    /// value (it may be a request's text).
    @inline(__always)
    private func encode(_ response: HTTPResponse, omitBody: Bool, keepAlive: Bool, version: HTTPVersion,
                        for method: @autoclosure () -> String, _ path: @autoclosure () -> String, into bytes: inout [UInt8]) {
        if !HTTPResponseEncoder.encode(response, omitBody: omitBody, keepAlive: keepAlive, requestVersion: version, date: env.date, into: &bytes) {
            env.logger.warning("answer to \(method()) \(path()) not sent: a header name, a header value or the reason phrase held CR, LF or NUL; a 500 went instead")
        }
    }

    /// `onSent` bound to what it is to be told: the answer, or a reply's messages.
    private static func sent<Sent: Sendable>(_ sent: Sent, _ onSent: (@Sendable (Sent) -> Void)?) -> (@Sendable () -> Void)? {
        guard let onSent else { return nil }
        return { onSent(sent) }
    }

    /// The bytes of an answer (cut, or none, as its delivery says), what follows it, its log entry.
    private func encoded(_ response: HTTPResponse, _ context: RequestContext, _ shape: AnswerShape) -> ([UInt8], CloseRequest, RequestLogEntry) {
        var bytes: [UInt8] = []
        var then = shape.keepAlive ? CloseRequest.none : .afterFlush
        var entry = RequestLogEntry(method: shape.method, path: shape.path, status: response.status.code, durationNanos: 0,
                                    system: context.system, hint: response.hint, remoteAddress: remoteAddress, level: context.logLevel)
        switch context.delivery.action {
        case .send:
            encode(response, omitBody: shape.omitBody, keepAlive: shape.keepAlive, version: shape.version,
                   for: shape.method, shape.path, into: &bytes)
        case .truncate:
            encode(response, omitBody: shape.omitBody, keepAlive: false, version: shape.version,
                   for: shape.method, shape.path, into: &bytes)
            if !shape.omitBody { bytes.removeLast(min(bytes.count, response.body.count - response.body.count / 2)) }
            then = .afterFlush
        case .raw:
            bytes = response.body
            entry.status = 0
            then = .afterFlush
        case .close:
            entry.cut = .closed
            then = .afterFlush
        case .reset:
            entry.cut = .reset
            then = .reset
        }
        return (bytes, then, entry)
    }

    private func logEntry(_ request: HTTPRequest, _ response: HTTPResponse, _ context: RequestContext, durationNanos: UInt64 = 0) -> RequestLogEntry {
        RequestLogEntry(method: request.method.rawValue, path: request.path, status: response.status.code,
                        durationNanos: durationNanos, system: context.system, hint: response.hint, remoteAddress: remoteAddress,
                        level: context.logLevel)
    }

    // MARK: - Deferred answers

    /// Holds the answer's place in the pipeline until its promise is completed or times out.
    private func deferAnswer(_ response: HTTPResponse, _ context: RequestContext, _ promise: DeferredResponse, _ shape: AnswerShape, start: UInt64) {
        holdSlot(promise, start: start) { DeferredSlot(token: $0, promise: promise, response: response, context: context, shape: shape) }
    }

    /// Appends a slot for `promise` (made with its token) and binds the promise to it.
    private func holdSlot(_ promise: DeferredResponse, start: UInt64, _ slot: (UInt64) -> DeferredSlot) {
        deferredSerial &+= 1
        let token = deferredSerial
        let timeout = min(promise.timeoutNanos, env.settings.maxDeferred)
        held.append(Held(releaseAt: env.now + timeout, bytes: [], then: .none, log: nil, startedAt: start, slot: slot(token)))
        let outcome = promise.bind(DeferredResponse.Binding(mailbox: env.mailbox, id: id, token: token))
        if case .pending = outcome {} else { resolve(held.count - 1, outcome) }
        releaseDue()
        if held.count >= env.settings.maxHeldAnswers { outputPaused = true }
    }

    /// A promise posted its completion: encode the answer in its slot and release what is due.
    private func completeDeferred(_ token: UInt64) {
        guard close == .none, let index = held.firstIndex(where: { $0.slot?.token == token }),
              let slot = held[index].slot else { return }
        let outcome = slot.promise.take(expiring: false)
        if case .pending = outcome { return }
        resolve(index, outcome)
        releaseDue()
    }

    /// Turns slot `index` into ordinary held output: the completed answer, or the timeout's.
    private func resolve(_ index: Int, _ outcome: DeferredResponse.Outcome) {
        guard let slot = held[index].slot else { return }
        if let reply = slot.reply { return resolve(index, reply, outcome, slot.promise) }
        let response: HTTPResponse
        switch outcome {
        case .pending:
            return
        case .completed(let replacement?):
            // A fault's directive on the handler's answer (a delay, a cut) applies to its replacement
            // too, and the router's naming of it (its system, its log level): the slot's context.
            response = replacement
        case .completed(nil):
            response = slot.response
        case .timedOut:
            response = slot.promise.timeoutResponse() ?? slot.response
        }
        var context = slot.context
        context.delivery.deferred = nil
        let (bytes, then, entry) = encoded(response, context, slot.shape)
        held[index].bytes = bytes
        held[index].then = then
        held[index].log = entry
        held[index].releaseAt = env.now + context.delivery.delayNanos
        held[index].sent = ConnectionMachine.sent(response, context.delivery.onSent)
        held[index].slot = nil
    }

    /// Slot `index` held a WebSocket reply: its frames (or the replacement's body as one text message).
    private func resolve(_ index: Int, _ reply: WebSocketReply, _ outcome: DeferredResponse.Outcome, _ promise: DeferredResponse) {
        var messages = reply.messages
        switch outcome {
        case .pending: return
        case .completed(nil): break
        case .completed(let replacement?): messages = [ConnectionMachine.textMessage(replacement.body)]
        case .timedOut:
            if let timeout = promise.timeoutResponse() { messages = [ConnectionMachine.textMessage(timeout.body)] }
        }
        var bytes: [UInt8] = []
        for message in messages { message.appendFrame(to: &bytes) }
        var then = CloseRequest.none
        if let request = reply.close {
            bytes.append(contentsOf: session.initiateClose(code: request.code, reason: request.reason))
            then = .afterFlush
        }
        held[index].bytes = bytes
        held[index].then = then
        held[index].releaseAt = env.now + (held[index].slot?.replyDelay ?? 0)
        held[index].messageLog = held[index].slot?.replyLog
        held[index].sent = ConnectionMachine.sent(messages, held[index].slot?.replySent)
        held[index].slot = nil
    }

    /// An HTTP body sent as a text message: as it is when it is UTF-8, else repaired (U+FFFD).
    private static func textMessage(_ body: [UInt8]) -> WebSocketPayload {
        body.withUnsafeBufferPointer(UTF8Validator.isValid) ? WebSocketPayload(utf8Text: body) : .text(String(decoding: body, as: UTF8.self))
    }

    /// Forgets held output; the promises of deferred answers still waiting are cancelled.
    private func dropHeld() {
        let dropped = held
        held = []
        for entry in dropped {
            // An answer that will never go out is still told (the provisional one if it was not
            // completed): the journal keeps every request the handler saw.
            if let slot = entry.slot {
                slot.promise.cancel()
                if let reply = slot.reply { slot.replySent?(reply.messages) } else { slot.context.delivery.onSent?(slot.response) }
            }
            entry.sent?()
        }
    }

    /// Answers a request the server refuses (a bound, a malformed request, a timeout), then closes.
    private func answerAndClose(_ status: HTTPStatus, _ reason: String, method: String? = nil, path: String? = nil) {
        let wasEmpty = pendingOutput == 0
        HTTPResponseEncoder.encode(.jsonError(status, reason), omitBody: false, keepAlive: false, requestVersion: .http1_1,
                                   date: env.date, into: &outbound)
        outputAdded(wasEmpty: wasEmpty)
        close = .afterFlush
        let start = requestStartedAt != 0 ? requestStartedAt : env.now
        // One line: the reason rides as the line's hint (it was a second line before).
        env.logger.request(RequestLogEntry(method: method ?? "-", path: path ?? "-", status: status.code, durationNanos: Sys.monotonicNanos() &- start,
                                           hint: reason, remoteAddress: remoteAddress))
    }

    // MARK: - WebSocket

    private func feedWebSocket(_ bytes: UnsafeRawBufferPointer) {
        guard let endpoint, messageContext != nil else { return }
        env.webSocketEvents.removeAll(keepingCapacity: true)
        // In place: a copy of the session would share, then copy, its partial-message buffer on every read.
        session.receive(bytes, into: &env.webSocketEvents)
        for event in env.webSocketEvents {
            switch event {
            case .message(let message):
                // The messages of this read arrived now: their log lines and journal entries count from it.
                // The context is answered in place (optional chaining on a mutating method): moving it
                // out and back copied it, a retain per reference it holds, twice a message.
                let now = env.now, pipeline = messagePipeline
                guard let (answer, sending) = messageContext?.answer(message, arrivedAt: now, { message, context in
                    pipeline.map { $0.message(message, &context, endpoint.onMessage) } ?? endpoint.onMessage(message, &context)
                }) else { return }
                reply(answer, sending, start: now)
            case .send(let frame):
                // A pong (or close echo) at once, as RFC 6455 §5.5.2 asks, past delayed replies;
                // only a 101 still held (a delayed handshake) goes first.
                if held.isEmpty { appendOutput(frame) } else { emit(frame, delay: 0, then: .none, log: nil, start: env.now, ordered: false) }
            case .closeConnection:
                if let failure = session.failure {
                    env.logger.info("WebSocket close \(failure.code) to \(remoteAddress): \(failure.reason)")
                }
                close = .afterFlush
                return
            }
        }
    }

    /// Sends `reply` as its message's context says (held, deferred, logged, reported).
    private func reply(_ reply: WebSocketReply, _ sending: MessageContext.Sending, start: UInt64) {
        let delayNanos = sending.delayNanos, deferred = sending.deferred, onSent = sending.onSent, log = sending.log
        if delayNanos == 0 && reply.close == nil && deferred == nil && held.isEmpty && pendingOutput == 0 && close == .none {
            // The hot path: frames straight into the empty output buffer (no hard cap to check),
            // as an HTTP answer is; the general path below cost a buffer, a hold and a copy.
            for message in reply.messages { message.appendFrame(to: &outbound) }
            if pendingOutput > 0 { outputAdded(wasEmpty: true) }
            if let onSent { onSent(reply.messages) }
            if let log { logMessage(log, start: start) }
            return
        }
        if let promise = deferred {
            holdReply(reply, promise, delayNanos: delayNanos, log: log, start: start, sent: onSent)
            return
        }
        var bytes: [UInt8] = []
        for message in reply.messages { message.appendFrame(to: &bytes) }
        var then = CloseRequest.none
        if let request = reply.close {
            bytes.append(contentsOf: session.initiateClose(code: request.code, reason: request.reason))
            then = .afterFlush
        }
        if bytes.isEmpty && then == .none {
            if let onSent { onSent(reply.messages) }
            if let log { logMessage(log, start: start) }
            return
        }
        // A delay holds this reply only; a close waits for the replies before it.
        emit(bytes, delay: delayNanos, then: then, log: nil, start: start, ordered: then != .none, messageLog: log,
             sent: ConnectionMachine.sent(reply.messages, onSent))
    }

    /// Writes a message's line, its duration from the message's arrival until now.
    private func logMessage(_ log: MessageLog, start: UInt64) {
        env.logger.webSocketMessage(log, durationNanos: Sys.monotonicNanos() &- start, remoteAddress: remoteAddress)
    }

    /// Holds the reply's place (later replies and pushes wait behind it) until its promise is
    /// completed: a reply waiting for its change to reach the disk must not be overtaken by one
    /// that may show the change.
    private func holdReply(_ reply: WebSocketReply, _ promise: DeferredResponse, delayNanos: UInt64, log: MessageLog?, start: UInt64,
                           sent: (@Sendable ([WebSocketPayload]) -> Void)?) {
        let shape = AnswerShape(version: .http1_1, keepAlive: true, omitBody: false, method: "WS", path: "")
        let context = RequestContext(remoteAddress: remoteAddress, localPort: localPort, arrivedAt: start)
        holdSlot(promise, start: start) {
            DeferredSlot(token: $0, promise: promise, response: HTTPResponse(), context: context, shape: shape, reply: reply, replySent: sent,
                         replyDelay: delayNanos, replyLog: log)
        }
    }

    private func afterWebSocketInput() {
        if pendingOutput > env.settings.outputHighWater { outputPaused = true }
        partialFrameSince = session.isMidMessage ? (partialFrameSince == 0 ? env.now : partialFrameSince) : 0
    }

    private func webSocketTimers(_ now: UInt64) {
        guard close == .none else { return }
        let settings = env.settings
        if partialFrameSince != 0 && now - partialFrameSince > settings.webSocketFrameTimeout {
            closeWebSocket(WebSocketCloseCode.policyViolation, "frame or message not finished within \(seconds(settings.webSocketFrameTimeout)) s")
        } else if pingSentAt != 0 {
            if now - pingSentAt > settings.webSocketPingInterval {
                closeWebSocket(WebSocketCloseCode.goingAway, "no answer to a ping within \(seconds(settings.webSocketPingInterval)) s")
            }
        } else if now - lastActivity > settings.webSocketPingInterval {
            var ping: [UInt8] = []
            WebSocketFrameHeader.encode(fin: true, opcode: WebSocketOpcode.ping, payloadLength: 0, into: &ping)
            appendOutput(ping)
            pingSentAt = now
        }
    }

    /// The server's push budget is used up and this connection holds the most of it: its unsent
    /// frames go (the memory is given back at once), and a close frame with the reason follows
    /// whatever part of a frame is already on the wire.
    private func shed() {
        if pushCharged > 0 { releasePushCharge(keeping: 0) }
        env.logger.warning("closing \(remoteAddress): the server's budget for pushed WebSocket output (\(env.pushBudget.limit) bytes, --max-pushed-output-bytes) is used up and this connection holds the most unread (\(pendingOutput) bytes)")
        dropHeld()
        if let cut = frameStarts.first(where: { $0 >= written }) {
            env.releasedBytes &+= outbound.capacity
            outbound = Array(outbound[written..<cut])
            written = 0
        }
        frameStarts = []
        appendOutput(session.initiateClose(code: WebSocketCloseCode.policyViolation, reason: "server output budget used up: this client reads too slowly"))
        close = .afterFlush
    }

    /// Gives back the push charge beyond `pending` bytes (what is written is no longer held). The
    /// budget gives back no more than it holds for this connection (after a shed, nothing).
    private func releasePushCharge(keeping pending: Int) {
        guard pushCharged > pending else { return }
        env.pushBudget.release(pushCharged - pending, from: id)
        pushCharged = max(0, pending)
    }

    private func closeWebSocket(_ code: UInt16, _ reason: String) {
        env.logger.info("WebSocket close \(code) to \(remoteAddress): \(reason)")
        dropHeld()
        appendOutput(session.initiateClose(code: code, reason: reason))
        close = .afterFlush
    }

    // MARK: - Output

    /// Output in order: straight to the buffer, or behind held answers until its release time.
    private func emit(_ bytes: [UInt8], delay: UInt64, then: CloseRequest, log: RequestLogEntry?, start: UInt64, ordered: Bool = true,
                      messageLog: MessageLog? = nil, sent: (@Sendable () -> Void)? = nil, dribbled: Bool = false) {
        held.append(Held(releaseAt: env.now + delay, bytes: bytes, then: then, log: log, startedAt: start, slot: nil, ordered: ordered,
                         messageLog: messageLog, sent: sent, dribbled: dribbled))
        releaseDue()
        if held.count >= env.settings.maxHeldAnswers { outputPaused = true }
    }

    private func hold(_ bytes: [UInt8], delay: UInt64, then: CloseRequest) {
        emit(bytes, delay: delay, then: then, log: nil, start: env.now)
    }

    /// Writes what is due: in turn, except that an unordered entry (a WebSocket reply) goes out
    /// when due even behind another one still waiting; nothing passes an ordered entry.
    private func releaseDue() {
        var index = 0
        while index < held.count, close == .none {
            let entry = held[index]
            if let slot = entry.slot {
                let outcome = slot.promise.take(expiring: entry.releaseAt <= env.now)
                if case .pending = outcome {
                    if entry.ordered { break }
                    index += 1
                    continue
                }
                resolve(index, outcome)
                continue
            }
            guard entry.releaseAt <= env.now, index == 0 || !entry.ordered else {
                if entry.ordered { break }
                index += 1
                continue
            }
            held.remove(at: index)
            if entry.dribbled, let seam = env.settings.onDribbledWrite { seam(entry.bytes.count) }
            appendOutput(entry.bytes)
            entry.sent?()
            if var log = entry.log, env.logger.isEnabled(log.level) {
                // The clock now, not the loop's cached `now`: that one is read once per wake-up,
                // so every answer given in the same wake-up would show 0.
                log.durationNanos = Sys.monotonicNanos() &- entry.startedAt
                env.logger.request(log)
            }
            if let messageLog = entry.messageLog { logMessage(messageLog, start: entry.startedAt) }
            if entry.then != .none { close = entry.then }
        }
        if close != .none && !held.isEmpty { dropHeld() }
    }

    private func appendOutput(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let before = pendingOutput
        if before > 0 && before + bytes.count > env.settings.outputHardCap {
            env.logger.warning("closing \(remoteAddress): more than \(env.settings.outputHardCap) bytes of output unread")
            close = .abort
            return
        }
        // A WebSocket's unit boundary, kept only while output waits (and a few KiB apart).
        if before > 0 && phase == .webSocket && frameStarts.last.map({ outbound.count - $0 >= 4096 }) ?? true {
            frameStarts.append(outbound.count)
        }
        outbound.append(contentsOf: bytes)
        outputAdded(wasEmpty: before == 0)
    }

    private func outputAdded(wasEmpty: Bool) {
        if wasEmpty { lastOutputProgress = env.now }
        let pending = pendingOutput
        if pending > env.peakPendingOutput { env.peakPendingOutput = pending }
    }

    private func seconds(_ nanos: UInt64) -> String {
        let tenths = nanos / 100_000_000
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
