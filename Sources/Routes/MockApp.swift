import HTTPServer

/// All five emulated systems plus the `/__mock` admin routes, over one seed and environment.
public final class MockApp: Sendable {
    /// The environment with every setting resolved (flags, then the seed's `settings`, then defaults).
    public let environment: MockEnvironment
    /// The emulated systems, in the order the banner and the README list them.
    public let systems: [any EmulatedSystem]
    private let admin: MockAdmin
    /// What `rebuilt(seed:)` builds the next app from: the environment before the seed's settings.
    private let base: MockEnvironment
    private let adminToken: String?
    private let adminHosts: [String]

    /// Builds every system from the seed. `adminToken`, when set, lets non-loopback clients
    /// use `/__mock/*` by sending `X-Mock-Admin-Token: <token>`; `adminHosts` are `Host` names
    /// the admin paths accept besides the loopback ones (the configured listen host).
    public init(seed: Seed, environment: MockEnvironment, adminToken: String? = nil, adminHosts: [String] = []) {
        base = environment
        self.adminToken = adminToken
        self.adminHosts = adminHosts
        let environment = environment.resolved(with: seed.settings)
        self.environment = environment
        // The list of systems: a sixth is one more line here.
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

    /// The system of that name (`rows`, `gateway`, `skyzone`, `musbooking`, `rsschool`), or nil.
    public func system(named name: String) -> (any EmulatedSystem)? {
        systems.first { $0.name == name }
    }

    /// A router with every route of every system, each in its system's route group.
    public func makeRouter() -> Router {
        var router = Router()
        for system in systems {
            router.group(system.routeGroup) { system.register(in: &$0) }
        }
        router.group(MockAdmin.routeGroup) { admin.register(in: &$0) }
        // `/` belongs to no system: a browser is sent to the console, API clients keep the 404.
        router.get("/") { request in Console.rootAnswer(request) }
        return router
    }

    /// Puts every system back to the seed and empties the outbox.
    public func reset() { admin.resetAll() }

    /// A new app on `seed`, sharing this one's clock, randomness, outbox, log and flags (the
    /// outbox keeps its messages: `--watch` empties it as a reset does).
    public func rebuilt(seed: Seed) -> MockApp {
        MockApp(seed: seed, environment: base, adminToken: adminToken, adminHosts: adminHosts)
    }
}
