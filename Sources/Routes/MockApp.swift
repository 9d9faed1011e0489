import HTTPServer

/// All five emulated systems plus the `/__mock` admin routes, over one seed and environment.
public final class MockApp: Sendable {
    public let environment: MockEnvironment
    public let systems: [any EmulatedSystem]
    private let admin: MockAdmin

    /// Builds every system from the seed. `adminToken`, when set, lets non-loopback clients
    /// use `/__mock/*` by sending `X-Mock-Admin-Token: <token>`; `adminHosts` are `Host` names
    /// the admin paths accept besides the loopback ones (the configured listen host).
    public init(seed: Seed, environment: MockEnvironment, adminToken: String? = nil, adminHosts: [String] = []) {
        self.environment = environment
        let systems: [any EmulatedSystem] = [
            RowsApp(seed: seed.rows, environment: environment),
            CustomerGateway(seed: seed.customerGateway, environment: environment),
            SkyZone(seed: seed.skyzone, environment: environment),
            Musbooking(seed: seed.musbooking, environment: environment),
            RSSchool(seed: seed.rsschool, environment: environment),
        ]
        self.systems = systems
        admin = MockAdmin(environment: environment, guard: AdminGuard(adminToken: adminToken, extraHosts: adminHosts), systems: systems, resetAll: {
            for system in systems { system.reset() }
            environment.outbox.reset()
        })
    }

    /// A router with every route of every system.
    public func makeRouter() -> Router {
        var router = Router()
        for system in systems { system.register(in: &router) }
        admin.register(in: &router)
        router.errorResponse = Console.redirectingBrowsers(MockApp.errorResponse)
        return router
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
