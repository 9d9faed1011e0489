#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Stubs

/// The mock's own routes under `/__mock/`: health, the outbox, accounts, reset, the web
/// console and a WebSocket echo; every one but health behind `AdminGuard`.
struct MockAdmin: Sendable {
    let environment: MockEnvironment
    let `guard`: AdminGuard
    let systems: [any EmulatedSystem]
    let instances: InstanceSlot
    let switcher: SwitcherSlot
    let runsGivenSeed: Bool
    let resetAll: @Sendable () -> Void
    let control: ControlPlane

    /// `/__mock/*` answers as `admin`, errors in Vapor's shape like the transport's own.
    /// `/__admin/*` is WireMock's admin API over the stubs, behind the same guard.
    static let routeGroup = RouteGroup(system: "admin", prefixes: ["/__mock", StubAdmin.prefix])

    /// The seed of a reset's body `{"seed": {…}}`; nil for a bare reset (no body, `{}`).
    static func resetSeed(_ body: [UInt8]) -> Result<Seed?, ControlPlane.FilterProblem> {
        guard !body.isEmpty else { return .success(nil) }
        guard case .object(let members)? = JSONValue.parse(body) else {
            return .failure(.init(description: "the body must be a JSON object {\"seed\": {…seed.json's format…}} (or no body)"))
        }
        if let extra = members.first(where: { $0.key != "seed" }) {
            return .failure(.init(description: "unknown field \"\(extra.key)\" (fields: seed)"))
        }
        guard let value = members.first?.value, value != .null else { return .success(nil) }
        guard case .object = value else { return .failure(.init(description: "\"seed\" must be an object in seed.json's format")) }
        do { return .success(try Seed.decode(Data(value.jsonText.utf8), source: "seed")) } catch {
            return .failure(.init(description: "\(error)", hint: (error as? SeedError)?.hint))
        }
    }

    func register(in router: inout Router) {
        let outbox = environment.outbox
        router.get(MockApp.healthPath) { [health = environment.health] _ in .json(.ok, health.json) }
        // With `waitMs`: answered once a matching message exists, or at the deadline with `[]`.
        router.get("/__mock/sms", `guard`.wrap { [control] request in
            let phone = request.queryParameters["phone"]
            return control.waitForOutbox(request) { outbox.sms(phone: phone) }
        })
        router.get("/__mock/emails", `guard`.wrap { [control] request in
            let address = request.queryParameters["to"]
            return control.waitForOutbox(request) { outbox.emails(to: address) }
        })
        registerArrange(in: &router)
        registerInstances(in: &router)
        router.get("/__mock/accounts", `guard`.wrap { [systems] request in AccountListingAnswer.answer(request, systems: systems) })
        router.post("/__mock/reset", `guard`.wrap { [environment, resetAll, switcher, runsGivenSeed] request in
            var seed: Seed?
            switch MockAdmin.resetSeed(request.body) {
            case .failure(let problem): return ControlPlane.badRequest(problem.description, hint: problem.hint)
            case .success(let given): seed = given
            }
            // Another seed, or back to the start seed from one: another app takes this one's place.
            if seed != nil || runsGivenSeed {
                guard let switchApp = switcher.switcher else {
                    return ControlPlane.badRequest("this server cannot reset to another seed (an embedding without a switcher); restart it with that seed")
                }
                let promise = DeferredResponse(timeoutNanos: 30_000_000_000)
                switchApp(seed) { _ = promise.complete() }
                return HTTPResponse.empty(.noContent).deferred(promise)
            }
            resetAll()
            environment.logger.info("state reset to the seed by \(request.remoteAddress)")
            return .empty(.noContent)
        })
        Console.register(in: &router, guard: `guard`, systems: systems)
        StubAdmin(store: control.stubs, journal: control).register(in: &router, guarded: `guard`.wrap)
        control.register(in: &router, guarded: `guard`.wrap)
        control.registerEvents(in: &router, admit: `guard`.admits, guarded: `guard`.wrap)
        // Conformance runs and diagnostics: every message comes back unchanged. A refused
        // handshake falls through to the GET route, which says why.
        router.webSocket("/__mock/echo", admit: `guard`.admits) { message in [message] }
        router.get("/__mock/echo", `guard`.wrap { _ in
            var response = HTTPResponse.text(.upgradeRequired, "This endpoint speaks WebSocket only; send an Upgrade: websocket handshake.\n")
            response.headers.set("Upgrade", "websocket")
            return response
        })
    }
}
