import HTTPServer
import MockControl
import StatePersistence
import Stubs

/// Every stage a request or a WebSocket message goes through, outermost first, declared once
/// (docs/architecture.md, "Stages"): each stage is one file in its own target; this fixed chain
/// is the one place that orders them. A new cross-cutting concern (a recorder, a proxy, network
/// shaping) is one stage file, one field here and its line in each chain below.
struct MockStages: Stage {
    /// Journals what was answered (outermost: it sees the final delivery).
    let journal: JournalStage
    /// Holds an answer whose change is not yet in the state file (`--state`; else passes).
    let durability: DurabilityStage
    /// Fires the fault rules a test posted.
    let faults: FaultStage
    /// WireMock-format stubs, before the systems.
    let stubs: StubStage

    func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        journal.handle(request, &context) { request, context in
            // Every inner stage off (the usual case: no --state, no fault rule, no stub for the
            // path): one flag each, then the route, without a call per stage.
            if !durability.isActive && !faults.isActive && !stubs.mayAnswer(context) { return next(request, &context) }
            return durability.handle(request, &context) { request, context in
                faults.handle(request, &context) { request, context in
                    stubs.handle(request, &context, next)
                }
            }
        }
    }

    func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        journal.handle(message, &context) { message, context in
            if !durability.isActive && !faults.isActiveForMessages { return next(message, &context) }
            return durability.handle(message, &context) { message, context in
                faults.handle(message, &context) { message, context in
                    stubs.handle(message, &context, next)
                }
            }
        }
    }

    func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? {
        journal.admit(request, context) ?? durability.admit(request, context) ?? faults.admit(request, context)
            ?? stubs.admit(request, context)
    }
}
