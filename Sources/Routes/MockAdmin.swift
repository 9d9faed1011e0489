#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockControl
import Stubs

/// The mock's own routes under `/__mock/`: health, the outbox, accounts, reset, the web
/// console and a WebSocket echo. `registerOpen` adds the two the guard does not stand before
/// (health, and the console page, whose token login comes first); `register` adds the rest, inside
/// the admin group that `AdminGuard` wraps once (`MockApp.makeRouter`).
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
    static var routeGroup: RouteGroup { AdminGuard.routeGroup }

    /// The guard as the admin group's wrapper of every handler.
    var guardAround: @Sendable (@escaping HTTPHandler) -> HTTPHandler {
        { [adminGuard = `guard`] handler in adminGuard.wrap(handler) }
    }

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

    /// Health (open to every client) and the console page (its own guard after the token login).
    func registerOpen(in router: inout Router) {
        router.get(MockApp.healthPath) { [health = environment.health] _ in .json(.ok, health.json) }
        Console.registerPage(in: &router, guard: `guard`, systems: systems)
    }

    /// Every other admin route; called inside the guarded admin group.
    func register(in router: inout Router) {
        let outbox = environment.outbox
        // With `waitMs`: answered once a matching message exists, or at the deadline with `[]`.
        router.get("/__mock/sms", { [control] request in
            let phone = request.queryParameters["phone"]
            return control.waitForOutbox(request) { outbox.sms(phone: phone) }
        })
        router.get("/__mock/emails", { [control] request in
            let address = request.queryParameters["to"]
            return control.waitForOutbox(request) { outbox.emails(to: address) }
        })
        registerArrange(in: &router)
        registerInstances(in: &router)
        router.get("/__mock/accounts", { [systems] request in AccountListingAnswer.answer(request, systems: systems) })
        router.post("/__mock/reset", { [environment, resetAll, switcher, runsGivenSeed] request in
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
        Console.registerAssets(in: &router)
        // WireMock's admin API over the stubs: inside this group, so the same guard covers it.
        StubAdmin(store: control.stubs, journal: control).register(in: &router, guarded: { $0 })
        control.register(in: &router)
        control.registerEvents(in: &router)
        // Conformance runs and diagnostics: every message comes back unchanged. A refused
        // handshake falls through to the GET route, which says why.
        router.webSocket("/__mock/echo") { message in [message] }
        router.get("/__mock/echo", { _ in
            var response = HTTPResponse.text(.upgradeRequired, "This endpoint speaks WebSocket only; send an Upgrade: websocket handshake.\n")
            response.headers.set("Upgrade", "websocket")
            return response
        })
    }
}
