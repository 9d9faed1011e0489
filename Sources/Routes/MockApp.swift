import HTTPServer

/// All five emulated systems plus the `/__mock` admin routes, over one seed and environment.
public final class MockApp: Sendable {
    public let environment: MockEnvironment
    public let systems: [any EmulatedSystem]
    private let admin: MockAdmin
    /// Journal, faults, clock, token controls and events (API.md §6.1).
    public let control: ControlPlane

    /// Builds every system from the seed. `adminToken`, when set, lets non-loopback clients
    /// use `/__mock/*` by sending `X-Mock-Admin-Token: <token>`.
    public init(seed: Seed, environment: MockEnvironment, adminToken: String? = nil, journalSize: Int = 1000) {
        self.environment = environment
        let systems: [any EmulatedSystem] = [
            RowsApp(seed: seed.rows, environment: environment),
            CustomerGateway(seed: seed.customerGateway, environment: environment),
            SkyZone(seed: seed.skyzone, environment: environment),
            Musbooking(seed: seed.musbooking, environment: environment),
            RSSchool(seed: seed.rsschool, environment: environment),
        ]
        self.systems = systems
        let control = ControlPlane(environment: environment, systems: systems, journalSize: journalSize)
        self.control = control
        admin = MockAdmin(environment: environment, adminToken: adminToken, resetAll: {
            for system in systems { system.reset() }
            environment.outbox.reset()
            control.reset()
        }, control: control)
    }

    /// A router with every route of every system.
    public func makeRouter() -> Router {
        var router = Router()
        for system in systems { system.register(in: &router) }
        admin.register(in: &router)
        router.errorResponse = MockApp.errorResponse
        router.wrapWebSocketHandlers { [control] pattern, handler in
            pattern == CustomerGateway.path ? control.gatewayHandler(handler) : handler
        }
        // Last, so the document lists every route (itself included).
        let document = JSON.serialize(OpenAPIDocument.document(routes: router.routeTable + [(.get, "/__mock/openapi.json")]))
        router.get("/__mock/openapi.json", admin.guarded { _ in .json(bytes: document) })
        return router
    }

    /// The responder to serve: every route, with the control plane's journal and faults around it.
    public func makeResponder() -> Responder {
        Responder(router: makeRouter(), middleware: control.middleware)
    }

    /// 404 and 405 in the error shape of the system that owns the path: musbooking answers
    /// plain text, SkyZone and RSSchool `{"error": …}`, everything else Vapor's shape (the rows app).
    @Sendable static func errorResponse(_ status: HTTPStatus, _ message: String, _ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        if path.hasPrefix("/api/") { return .text(status, message) }
        if path.hasPrefix("/rsschool/") || path == "/customer" || path.hasPrefix("/customer/")
            || path == "/tokens" || path.hasPrefix("/tokens/") {
            return .json(status, object: ["error": message])
        }
        return .jsonError(status, message)
    }

    /// Puts every system back to the seed and empties the outbox.
    public func reset() { admin.resetAll() }
}
