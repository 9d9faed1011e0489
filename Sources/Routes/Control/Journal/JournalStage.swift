#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit

/// The outermost stage: journals every answered request and message except on the admin paths
/// (which it passes by, their reads logged at debug). It stands outside durability, faults and
/// stubs, so it sees the final delivery: an answer that is held (deferred, delayed, gated, or
/// behind an earlier held one on its connection) is journaled when it goes out, with what went
/// out (`onSent`), so the journal's order is the order answers went out; any other, at once.
/// Who answered (a stub, a fault) it reads from `answeredBy`.
package struct JournalStage: Stage {
    let plane: ControlPlane

    package init(_ plane: ControlPlane) { self.plane = plane }

    package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                        _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        if context.owner?.isAdmin == true {
            let response = next(request, &context)
            ControlPlane.quietAdminRead(response, to: request, in: &context)
            return response
        }
        // No journal: no clock read.
        guard plane.journal.isEnabled else { return next(request, &context) }
        let at = plane.clock.now()
        let response = next(request, &context)
        let system = context.owner?.name
        let fired = context.answeredBy?.latest(.fault)?.detail as? FaultRule
        let stub = context.answeredBy?.latest(.stub).map { StubReference(id: $0.id, name: $0.name) }
        if context.delivery.deferred != nil || context.delivery.delayNanos != 0 || context.behindHeldAnswer {
            context.delivery.onSent = journalWhenSent(request, at: at, system: system, fired: fired, stub: stub, context: context)
            return response
        }
        // From the request's arrival (the connection's stamp, the log line's origin too) to now.
        let durationNanos = SystemTime.monotonicNanos() &- context.arrivedAt
        // The entry keeps references to the request's and response's storage, field by field:
        // handing it the whole structs made the optimiser copy both.
        let sent = JournalEntry.sent(context.delivery.action, status: response.status.code, body: response.body)
        let entry = JournalEntry(at: at, durationNanos: durationNanos, system: stub == nil ? system : StubReference.systemName,
                                 method: request.method.rawValue, path: request.path, query: request.query,
                                 status: sent.status, requestHeaders: request.headers, requestBody: request.body,
                                 responseHeaders: response.headers, responseBody: sent.body, hint: response.hint, fault: fired, stub: stub,
                                 remoteAddress: context.remoteAddress)
        plane.journal.record(entry)
        return response
    }

    /// A held answer's journaling: the entry, made from the answer that went out (a durability
    /// refusal, a long poll's result) when it goes out, its duration up to then.
    @inline(never)
    private func journalWhenSent(_ request: HTTPRequest, at: Date, system: String?, fired: FaultRule?, stub: StubReference?,
                                 context: RequestContext) -> @Sendable (HTTPResponse) -> Void {
        let journal = plane.journal, action = context.delivery.action, arrivedAt = context.arrivedAt, remoteAddress = context.remoteAddress
        let system = stub == nil ? system : StubReference.systemName
        return { response in
            let sent = JournalEntry.sent(action, status: response.status.code, body: response.body)
            journal.record(JournalEntry(at: at, durationNanos: SystemTime.monotonicNanos() &- arrivedAt, system: system,
                                        method: request.method.rawValue, path: request.path, query: request.query,
                                        status: sent.status, requestHeaders: request.headers, requestBody: request.body,
                                        responseHeaders: response.headers, responseBody: sent.body, hint: response.hint, fault: fired, stub: stub,
                                        remoteAddress: remoteAddress))
        }
    }

    /// A message on a system's endpoint (`method: "WS"`, its type as the path): recorded once its
    /// reply is made, or, when the reply is held, once it goes out.
    package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                        _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard let owner = context.owner, !owner.isAdmin, plane.journal.isEnabled else { return next(message, &context) }
        let reply = next(message, &context)
        let at = plane.clock.now()
        let fired = context.answeredBy?.latest(.fault)?.detail as? FaultRule
        let type = context.reading?.type, system = owner.name, remoteAddress = context.connection.remoteAddress
        if context.delayNanos != 0 || context.deferred != nil {
            // Held: journaled when it goes out, with what went out and the time it was held.
            let journal = plane.journal, arrivedAt = context.arrivedAt
            context.onSent = { messages in
                journal.record(JournalEntry(webSocketMessage: message, type: type, replies: messages, system: system, at: at,
                                            durationNanos: SystemTime.monotonicNanos() &- arrivedAt, fault: fired, remoteAddress: remoteAddress))
            }
            return reply
        }
        // From the message's arrival (the connection's stamp, the log line's origin too) to now.
        let durationNanos = SystemTime.monotonicNanos() &- context.arrivedAt
        // The message's bytes and the reply's list are kept as they are (copy-on-write): no bytes copied.
        plane.journal.record(JournalEntry(webSocketMessage: message, type: type, replies: reply.messages, system: system,
                                          at: at, durationNanos: durationNanos, fault: fired, remoteAddress: remoteAddress))
        return reply
    }
}
