import HTTPServer

/// The mock's own routes under `/__mock/`: health, the outbox, accounts, reset, the web
/// console and a WebSocket echo; every one but health behind `AdminGuard`.
struct MockAdmin: Sendable {
    let environment: MockEnvironment
    let `guard`: AdminGuard
    let systems: [any EmulatedSystem]
    let instances: InstanceSlot
    let resetAll: @Sendable () -> Void
    let control: ControlPlane

    /// `/__mock/*` answers as `admin`, errors in Vapor's shape like the transport's own.
    static let routeGroup = RouteGroup(system: "admin", prefixes: ["/__mock"])

    func register(in router: inout Router) {
        let outbox = environment.outbox
        router.get("/__mock/health") { [health = environment.health] _ in .json(.ok, health.json) }
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
        router.get("/__mock/accounts", `guard`.wrap { [systems] _ in
            var listings: [String: [AccountSummary]] = [:]
            for case let listing? in systems.map({ $0.accountListing() }) { listings[listing.system] = listing.accounts }
            return .json(.ok, listings)
        })
        router.post("/__mock/reset", `guard`.wrap { [environment, resetAll] request in
            resetAll()
            environment.logger.info("state reset to the seed by \(request.remoteAddress)")
            return .empty(.noContent)
        })
        Console.register(in: &router, guard: `guard`, systems: systems)
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
