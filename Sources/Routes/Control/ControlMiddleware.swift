#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Stubs
import EmulationKit

extension ControlPlane {
    /// An admin answer's log level: a test polling the outbox (or the console probing with
    /// OPTIONS) would fill the info log, so reads that worked are debug; changes and refusals stay
    /// at info.
    package static func quietAdminRead(_ response: HTTPResponse, to request: HTTPRequest, in context: inout RequestContext) {
        guard AdminGuard.isSafe(request.method) && response.status.code < 400 else { return }
        context.logLevel = .debug
    }

    /// The responder's middleware: fires faults and journals every answered request except the
    /// admin paths, which are neither faulted nor journaled. The path's owner is the router's
    /// (`RequestContext.system`, the matched route's group).
    package var middleware: Middleware { middleware(gated: false) }

    /// The middleware; `gated` when a durability gate around it holds every answer whose handler
    /// changed state (`ThreadMark`). An answer that is held (deferred, delayed, to be gated, or
    /// behind an earlier held one on its connection) is journaled when it goes out, with what went
    /// out (`Delivery.onSent`), so the journal's order is the order answers went out; any other, at once.
    package func middleware(gated: Bool) -> Middleware {
        { [self] request, context, next in
            let system = context.system
            if system == AdminGuard.routeGroup.system {
                let response = next(request, &context)
                ControlPlane.quietAdminRead(response, to: request, in: &context)
                return response
            }
            // No rule (the usual case): no lock, no method string; no journal: no clock read.
            let fired = faults.hasRules ? faults.fire(method: request.method.rawValue, path: request.path, system: system) : nil
            guard journal.isEnabled else {
                guard fired != nil || !stubs.isEmpty else { return next(request, &context) }
                return answer(request, &context, fired: fired, next)
            }
            let at = clock.now()
            let response = answer(request, &context, fired: fired, next)
            let stub = stubs.isEmpty ? nil : StubStore.reference(of: response, system: context.system)
            if context.delivery.deferred != nil || context.delivery.delayNanos != 0 || context.behindHeldAnswer
                || (gated && ThreadMark.value != 0) {
                context.delivery.onSent = journalWhenSent(request, at: at, system: system, fired: fired, stub: stub, context: context)
                return response
            }
            // From the request's arrival (the connection's stamp, the log line's origin too) to now.
            let durationNanos = SystemTime.monotonicNanos() &- context.arrivedAt
            // The entry keeps references to the request's and response's storage, field by field:
            // handing it the whole structs made the optimiser copy both.
            let sent = JournalEntry.sent(context.delivery.action, status: response.status.code, body: response.body)
            let entry = JournalEntry(at: at, durationNanos: durationNanos, system: stub == nil ? system : StubStore.systemName,
                                     method: request.method.rawValue, path: request.path, query: request.query,
                                     status: sent.status, requestHeaders: request.headers, requestBody: request.body,
                                     responseBody: sent.body, hint: response.hint, fault: fired, stub: stub,
                                     remoteAddress: context.remoteAddress)
            journal.record(entry)
            return response
        }
    }

    /// A held answer's journaling: the entry, made from the answer that went out (a durability
    /// refusal, a long poll's result) when it goes out, its duration up to then.
    @inline(never)
    private func journalWhenSent(_ request: HTTPRequest, at: Date, system: String?, fired: FaultRule?, stub: StubReference?,
                                 context: RequestContext) -> @Sendable (HTTPResponse) -> Void {
        let journal = journal, action = context.delivery.action, arrivedAt = context.arrivedAt, remoteAddress = context.remoteAddress
        let system = stub == nil ? system : StubStore.systemName
        return { response in
            let sent = JournalEntry.sent(action, status: response.status.code, body: response.body)
            journal.record(JournalEntry(at: at, durationNanos: SystemTime.monotonicNanos() &- arrivedAt, system: system,
                                        method: request.method.rawValue, path: request.path, query: request.query,
                                        status: sent.status, requestHeaders: request.headers, requestBody: request.body,
                                        responseBody: sent.body, hint: response.hint, fault: fired, stub: stub,
                                        remoteAddress: remoteAddress))
        }
    }

    /// The response, through the fault that fired if any, or a stub's.
    private func answer(_ request: HTTPRequest, _ context: inout RequestContext, fired: FaultRule?,
                        _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        guard let fired else {
            // A system's path skips the stubs while none of them could answer it (one atomic load).
            return stubs.isEmpty || (context.system != nil && !stubs.mayAnswerSystemPaths) ? next(request, &context) : stubbed(request, &context, next)
        }
        let response = stubs.isEmpty ? apply(fired.action, to: request, in: &context, next)
            : apply(fired.action, to: request, in: &context) { stubbed($0, &$1, next) }
        reportFired(fired, method: request.method.rawValue, path: request.path, system: context.system)
        return response
    }

    /// A stub's answer when a mapping matches, else the systems'.
    @inline(never)
    private func stubbed(_ request: HTTPRequest, _ context: inout RequestContext,
                         _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        stubs.answer(request, in: &context) ?? next(request, &context)
    }

    /// An HTTP fault: a substitute answer (the handler does not run), or the real one re-delivered.
    package func apply(_ action: FaultAction, to request: HTTPRequest, in context: inout RequestContext,
                       _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        switch action {
        case .delay(let ms):
            response = next(request, &context)
            context.delivery.delayNanos = UInt64(ms) * 1_000_000
        case .respond(let status, let body, let headers):
            response = HTTPResponse(status: HTTPStatus(code: status), body: Array((body ?? "").utf8))
            if let body, !headers.keys.contains(where: { $0.equalsIgnoringASCIICase("Content-Type") }) {
                response.headers.set("Content-Type", JSONValue.parse(body) == nil ? HTTPResponse.textContentType : HTTPResponse.jsonContentType)
            }
            for field in action.sortedHeaders(headers) { response.headers.add(field.name, field.value) }
            // A fault's fields come from a test: the encoder checks them again (defence in depth).
            response.outsideFields = true
        case .close:
            response = .empty(.internalServerError)
            context.delivery.action = .close
        case .reset:
            response = .empty(.internalServerError)
            context.delivery.action = .reset
        case .truncate:
            response = next(request, &context)
            context.delivery.action = .truncate
        case .malformedJSON:
            response = next(request, &context)
            // Half the real body and a tail no JSON parser accepts, whatever the half ends in.
            response.body = Array(response.body.prefix(response.body.count / 2)) + Array("<<mock fault: malformed JSON".utf8)
        case .reply, .noReply, .closeCode:
            // Refused when the rule is posted; answer normally if one slipped through.
            response = next(request, &context)
        }
        return response
    }

    /// Each fault that fires is logged and published.
    package func reportFired(_ rule: FaultRule, method: String, path: String, system: String?) {
        logger.info("fault \(rule.id) fired on \(method) \(path): \(rule.action.logText)\(rule.remaining.map { " (\($0) left)" } ?? "")")
        let data = rule.json
        events.publish(kind: "fault", at: clock.now()) {
            var d = data
            d.set("request", ["method": .string(method), "path": .string(path), "system": JSONValue(system)])
            return d
        }
        if rule.remaining == 0 { publish(.faultUsedUp) { data } }
    }

    /// Wraps a system's WebSocket endpoint at `pattern`: journal entries (`method: "WS"`) and,
    /// for a system whose faults match message types, those faults (`reply`, `noReply`,
    /// `delayMs`, `closeCode`), delivered through the transport's reply. While message rules are
    /// set, each message is read once by the system's vocabulary (`readMessage`) for the rules, the
    /// log line, a scripted reply and the journal, and that reading goes to `handler` (the system's
    /// `messageHandler`), so nothing parses it again. Admin endpoints and endpoints no system owns
    /// are returned as they are.
    package func webSocketEndpoint(_ endpoint: WebSocketEndpoint, at pattern: String, handler: MessageHandler? = nil) -> WebSocketEndpoint {
        guard let owner = owners.owner(of: pattern), owner != adminOwner else { return endpoint }
        let system = owners.names[owner]
        let typedFaults = catalog.messageTypedNames.contains(system)
        let systemType = catalog.types.first { $0.name == system }
        var wrapped = endpoint
        let onMessage = endpoint.onMessage
        // A rule on the endpoint's HTTP path acts on the handshake: a delay holds the 101, any
        // other action answers the request as a plain one, where the middleware fires it.
        wrapped.admission = { [self] request, _ in
            guard faults.hasRules, let rule = faults.peek(method: "GET", path: request.path, system: system) else {
                return .accept(delayNanos: 0)
            }
            guard case .delay = rule.action, let fired = faults.fire(method: "GET", path: request.path, system: system),
                  case .delay(let ms) = fired.action else { return .answerAsHTTP }
            reportFired(fired, method: "GET", path: request.path, system: system)
            return .accept(delayNanos: UInt64(ms) * 1_000_000)
        }
        wrapped.onMessage = { [self] message, connection in
            let journaling = journal.isEnabled
            var fired: FaultRule?
            var reading: MessageReading?
            if typedFaults && faults.hasMessageRules {
                reading = systemType?.readMessage(message.bytes)
                fired = faults.fire(messageType: reading?.type ?? "", system: system)
            }
            // The system's handler, given the reading when there is one.
            func answer() -> WebSocketReply {
                if let reading, let handler { return handler(reading, connection) }
                return onMessage(message, connection)
            }
            var reply: WebSocketReply
            switch fired?.action {
            case .reply(let text)?:
                let utf8 = Array(text.utf8)
                let scripted = reading.map { systemType?.scriptedReply(utf8, to: $0, random: random) ?? utf8 } ?? utf8
                reply = WebSocketReply(messages: [WebSocketPayload(utf8Text: scripted)])
            case .noReply?: reply = .none
            case .closeCode(let code)?: reply = WebSocketReply(close: WebSocketCloseRequest(code: UInt16(clamping: code), reason: "fault"))
            case .delay(let ms)?:
                reply = answer()
                reply.delayNanos += UInt64(max(0, ms)) * 1_000_000
            default: reply = answer()
            }
            if let fired {
                reportFired(fired, method: "WS", path: pattern, system: system)
                // The handler did not run (or its reply is held): the line says what the fault did.
                if logger.isEnabled(.info) {
                    let log = reply.log ?? MessageLog(MessageLogEntry(type: reading?.type ?? "", id: reading?.idText, outcome: "", system: system))
                    let outcome = log.currentOutcome
                    log.setOutcome(outcome.isEmpty ? "fault \(fired.action.logText)" : "\(outcome) (fault \(fired.action.logText))")
                    reply.log = log
                }
            }
            guard journaling else { return reply }
            let at = clock.now()
            if reply.delayNanos != 0 || reply.deferred != nil {
                // Held: journaled when it goes out, with what went out and the time it was held.
                let journal = journal, type = reading?.type, fault = fired, arrivedAt = connection.messageArrivedAt, remoteAddress = connection.remoteAddress
                connection.whenReplySent { messages in
                    journal.record(JournalEntry(webSocketMessage: message, type: type, replies: messages, system: system, at: at,
                                                durationNanos: SystemTime.monotonicNanos() &- arrivedAt, fault: fault, remoteAddress: remoteAddress))
                }
                return reply
            }
            // From the message's arrival (the connection's stamp, the log line's origin too) to now.
            let durationNanos = SystemTime.monotonicNanos() &- connection.messageArrivedAt
            // The message's bytes and the reply's list are kept as they are (copy-on-write): no bytes copied.
            journal.record(JournalEntry(webSocketMessage: message, type: reading?.type, replies: reply.messages, system: system,
                                        at: at, durationNanos: durationNanos, fault: fired, remoteAddress: connection.remoteAddress))
            return reply
        }
        return wrapped
    }
}
