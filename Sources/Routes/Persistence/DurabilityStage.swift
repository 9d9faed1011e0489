import HTTPServer

/// Under `--state`, holds every answer and every WebSocket reply whose handler changed state
/// until its change is in the state file (`DurabilityGate`): it clears the thread's mark
/// (`ThreadMark`) before the rest of the pipeline and reads it after. Inside the journal stage,
/// so the journal sees the held answer's final delivery; outside faults and stubs.
///
/// Without `--state` it has no gate and passes everything on (one load and a branch).
package struct DurabilityStage: Stage {
    @usableFromInline let gate: DurabilityGate?
    /// A refused message's reply, in the owning system's shape (its name, the message, the reason).
    let messageRefusal: @Sendable (String?, WebSocketPayload, String) -> String

    package init(_ gate: DurabilityGate?, messageRefusal: @escaping @Sendable (String?, WebSocketPayload, String) -> String) {
        self.gate = gate
        self.messageRefusal = messageRefusal
    }

    /// Whether it holds anything (`--state`): without, the chain may pass this stage by.
    package var isActive: Bool { gate != nil }

    /// Without `--state`: the nil check, inlined into the chain, and on to `next`.
    @inlinable package func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                                   _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        guard let gate else { return next(request, &context) }
        return hold(request, &context, gate, next)
    }

    @usableFromInline
    func hold(_ request: HTTPRequest, _ context: inout RequestContext, _ gate: DurabilityGate,
              _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        ThreadMark.clear()
        let response = next(request, &context)
        let seq = ThreadMark.value
        guard seq != 0 else { return response }   // nothing changed (a long poll changes nothing)
        let store = gate.store
        let refusal: @Sendable () -> HTTPResponse = {
            DurabilityGate.refusal(store.failure ?? DurabilityGate.timedOut)
        }
        let promise = DurabilityGate.promise(store, seq, after: context.delivery.deferred, refusal: refusal)
        return context.deferring(response, until: promise)
    }

    /// A reply to a message that changed state is held (in order: later replies wait behind it)
    /// until its change is durable; a change the file did not take is answered with the owner's
    /// refusal instead, as one text message.
    @inlinable package func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                                   _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard let gate else { return next(message, &context) }
        return hold(message, &context, gate, next)
    }

    @usableFromInline
    func hold(_ message: WebSocketPayload, _ context: inout MessageContext, _ gate: DurabilityGate,
              _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        ThreadMark.clear()
        let reply = next(message, &context)
        let seq = ThreadMark.value
        guard seq != 0 else { return reply }
        let store = gate.store, refusal = messageRefusal, system = context.owner?.name
        let refused: @Sendable () -> HTTPResponse = {
            HTTPResponse.text(.serviceUnavailable, refusal(system, message, store.failure ?? DurabilityGate.timedOut))
        }
        context.deferred = DurabilityGate.promise(store, seq, after: context.deferred, refusal: refused)
        return reply
    }
}
