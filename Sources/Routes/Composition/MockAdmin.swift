#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockControl
import Stubs

/// The mock's own routes under `/__mock/` and `/__admin/`: one table (`routes`, in
/// AdminRouteTable.swift) that the router and the OpenAPI document are both built from. Health and
/// the console page stand before the guard; every other route is in the admin group that
/// `AdminGuard` wraps once (`MockApp.makeRouter`).
struct MockAdmin: Sendable {
    let environment: MockEnvironment
    let `guard`: AdminGuard
    let systems: [any EmulatedSystem]
    let instances: InstanceSlot
    let switcher: SwitcherSlot
    let runsGivenSeed: Bool
    let resetAll: @Sendable () -> Void
    let control: ControlPlane
    /// The stub mappings `/__admin/*` administers (the app's store).
    let stubs: StubStore

    /// `/__mock/*` and the stubs' `/__admin/*` answer as `admin`, errors in Vapor's shape like the transport's own.
    static let routeGroup = AdminGuard.routeGroup(alsoOwning: StubAdmin.prefix)

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

    /// `GET /__mock/sms`; with `waitMs`, answered once a matching message exists, or at the deadline with `[]`.
    var smsHandler: HTTPHandler {
        let outbox = environment.outbox
        return { [control] request, context in
            let phone = request.queryParameters["phone"]
            return control.waitForOutbox(request, in: &context) { outbox.sms(phone: phone) }
        }
    }

    /// `GET /__mock/emails`, as `smsHandler`.
    var emailsHandler: HTTPHandler {
        let outbox = environment.outbox
        return { [control] request, context in
            let address = request.queryParameters["to"]
            return control.waitForOutbox(request, in: &context) { outbox.emails(to: address) }
        }
    }

    /// `POST /__mock/reset`: back to the start seed, or to the seed in the body.
    var resetHandler: HTTPHandler {
        { [environment, resetAll, switcher, runsGivenSeed] request, context in
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
                return context.deferring(.empty(.noContent), until: promise)
            }
            resetAll()
            environment.logger.info("state reset to the seed by \(context.remoteAddress)")
            return .empty(.noContent)
        }
    }

    /// `GET /__mock/echo` without a handshake (or with one the guard refused): told to upgrade.
    static var upgradeToEcho: HTTPHandler {
        { _, _ in
            var response = HTTPResponse.text(.upgradeRequired, "This endpoint speaks WebSocket only; send an Upgrade: websocket handshake.\n")
            response.headers.set("Upgrade", "websocket")
            return response
        }
    }
}
