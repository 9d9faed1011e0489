import HTTPServer
import MockControl
import StatePersistence
import Stubs

/// Every stage a request or a WebSocket message goes through, outermost first, declared once
/// (docs/architecture.md, "Stages"): each stage is one file in its own target; this fixed chain
/// is the one place that orders them. A new cross-cutting concern (a recorder, a proxy, network
/// shaping) is one stage file, one field here and its line in each chain below (and, when it
/// can be off, its flag in the pass-by test).
struct MockStages: Stage {
    /// Journals what was answered (outermost: it sees the final delivery).
    let journal: JournalStage
    /// Holds an answer whose change is not yet in the state file (`--state`; else passes).
    let durability: DurabilityStage
    /// Fires the fault rules a test posted.
    let faults: FaultStage
    /// WireMock-format stubs, before the systems.
    let stubs: StubStage
    /// `--proxy-all`: what no stub and no route answers goes upstream (innermost).
    let proxy: ProxyStage

    func handle(_ request: HTTPRequest, _ context: inout RequestContext,
                _ next: (HTTPRequest, inout RequestContext) -> HTTPResponse) -> HTTPResponse {
        // Every stage inside the journal off (the usual case: no --state, no fault rule, no stub
        // for the path; the owner is the router's, known already): one flag each, and the
        // journal hands straight to the route, without a call per stage.
        guard durability.isActive || faults.isActive || stubs.mayAnswer(context) || proxy.isActive else {
            return journal.handle(request, &context, next)
        }
        return journal.handle(request, &context) { request, context in
            durability.handle(request, &context) { request, context in
                faults.handle(request, &context) { request, context in
                    stubs.handle(request, &context) { request, context in
                        proxy.handle(request, &context, next)
                    }
                }
            }
        }
    }

    func handle(_ message: WebSocketPayload, _ context: inout MessageContext,
                _ next: (WebSocketPayload, inout MessageContext) -> WebSocketReply) -> WebSocketReply {
        guard durability.isActive || faults.isActiveForMessages else { return journal.handle(message, &context, next) }
        return journal.handle(message, &context) { message, context in
            durability.handle(message, &context) { message, context in
                faults.handle(message, &context) { message, context in
                    stubs.handle(message, &context, next)
                }
            }
        }
    }

    func admit(_ request: HTTPRequest, _ context: RequestContext) -> WebSocketAdmission? {
        journal.admit(request, context) ?? durability.admit(request, context) ?? faults.admit(request, context)
            ?? stubs.admit(request, context) ?? proxy.admit(request, context)
    }
}
