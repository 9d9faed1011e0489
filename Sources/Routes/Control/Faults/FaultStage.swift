import HTTPServer
import EmulationKit

/// Fires the fault rules a test posted (docs/control-plane.md): on a request, a substitute
/// answer or the real one re-delivered (`ControlPlane.apply`); on a handshake, a held 101 or a
/// plain answer; on a message of a system whose faults match message types, a scripted reply, no
/// reply, a close code or a delay, the message read once by the system's vocabulary and that
/// reading left in the context for the endpoint. A rule that fires is named in `answeredBy`.
/// With no rule (the usual case) it costs one atomic load.
package struct FaultStage: Stage {
    @usableFromInline let plane: ControlPlane
    /// The systems whose messages have a vocabulary that rules match, by name.
    private let vocabularies: [(name: String, type: any EmulatedSystem.Type)]

    package init(_ plane: ControlPlane) {
        self.plane = plane
        vocabularies = plane.catalog.types.filter { plane.catalog.messageTypedNames.contains($0.name) }.map { ($0.name, $0) }
    }

    /// Whether a rule is set: with none, the chain may pass this stage by.
    package var isActive: Bool { plane.faults.hasRules }
    /// Whether a message rule is set.
    package var isActiveForMessages: Bool { plane.faults.hasMessageRules }

    /// No rule (the usual case): the flag's load, inlined into the chain, and on to `next`.
    @inlinable package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                                   _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        guard plane.faults.hasRules else { return next(request, &context) }
        return fire(request, &context, next)
    }

    @usableFromInline
    func fire(_ request: HTTPRequest, _ context: inout RequestContext,
              _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        guard context.owner?.isAdmin != true,
              let fired = plane.faults.fire(method: request.method.rawValue, path: request.path, system: context.owner?.name) else {
            return next(request, &context)
        }
        context.answeredBy = Substitute(.fault, id: String(fired.id), detail: fired, previous: context.answeredBy)
        let response = plane.apply(fired.action, to: request, in: &context, next)
        plane.reportFired(fired, method: request.method.rawValue, path: request.path, system: context.owner?.name)
        return response
    }

    /// A rule on a system's WebSocket path acts on the handshake: a delay holds the 101, any
    /// other action answers the request as a plain one, where `handle` fires it.
    package func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? {
        guard plane.faults.hasRules, let owner = context.owner, !owner.isAdmin else { return nil }
        let system = owner.name
        guard let rule = plane.faults.peek(method: "GET", path: request.path, system: system) else { return nil }
        guard case .delay = rule.action, let fired = plane.faults.fire(method: "GET", path: request.path, system: system),
              case .delay(let ms) = fired.action else { return .answerAsHTTP }
        plane.reportFired(fired, method: "GET", path: request.path, system: system)
        return .accept(delayNanos: UInt64(ms) * 1_000_000)
    }

    @inlinable package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                                   _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard plane.faults.hasMessageRules else { return next(message, &context) }
        return fire(message, &context, next)
    }

    @usableFromInline
    func fire(_ message: WebSocketPayload, _ context: inout MessageContext,
              _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard let owner = context.owner, !owner.isAdmin,
              let vocabulary = vocabularies.first(where: { $0.name == owner.name })?.type else { return next(message, &context) }
        let system = owner.name
        let reading = vocabulary.readMessage(message.bytes)
        context.reading = reading
        guard let fired = plane.faults.fire(messageType: reading?.type ?? "", system: system) else { return next(message, &context) }
        context.answeredBy = Substitute(.fault, id: String(fired.id), detail: fired, previous: context.answeredBy)
        var reply: WebSocketReply
        switch fired.action {
        case .reply(let text):
            let utf8 = Array(text.utf8)
            let scripted = reading.map { vocabulary.scriptedReply(utf8, to: $0, random: plane.random) } ?? utf8
            reply = WebSocketReply(messages: [WebSocketPayload(utf8Text: scripted)])
        case .noReply: reply = .none
        case .closeCode(let code): reply = WebSocketReply(close: WebSocketCloseRequest(code: UInt16(clamping: code), reason: "fault"))
        case .delay(let ms):
            reply = next(message, &context)
            context.delayNanos += UInt64(max(0, ms)) * 1_000_000
        default: reply = next(message, &context)
        }
        plane.reportFired(fired, method: "WS", path: context.connection.path, system: system)
        // The handler did not run (or its reply is held): the line says what the fault did.
        if plane.logger.isEnabled(.info) {
            let log = context.log ?? MessageLog(MessageLogEntry(type: reading?.type ?? "", id: reading?.idText, outcome: "", system: system))
            let outcome = log.currentOutcome
            log.setOutcome(outcome.isEmpty ? "fault \(fired.action.logText)" : "\(outcome) (fault \(fired.action.logText))")
            context.log = log
        }
        return reply
    }
}
