#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockControl
import StatePersistence
import Stubs
import MockAdminWire

/// Every registered emulated system plus the `/__mock` admin routes, over one seed and environment.
package final class MockApp: Sendable {
    /// The environment with every setting resolved (flags, then the seed's `settings`, then defaults).
    package let environment: MockEnvironment
    /// The emulated systems, in the order the banner and the README list them.
    package let systems: [any EmulatedSystem]
    let admin: MockAdmin
    /// Journal, faults, clock, token controls and events (docs/control-plane.md).
    package let control: ControlPlane
    /// The WireMock-format stub mappings that answer before the systems: held here, in the
    /// composition root, and shared by every app rebuilt from this one (`rebuilt(seed:)`).
    package let stubs: StubStore
    /// `--proxy-all URL`: the upstream for what no stub and no route answers (`ProxyStage`).
    package let proxyAll: ProxyAll?
    /// What `rebuilt(seed:)` builds the next app from: the environment before the seed's settings.
    private let base: MockEnvironment
    private let adminToken: String?
    private let adminHosts: [String]
    private let journalSize: Int
    /// The seed it started from.
    let seed: Seed
    /// `POST /__mock/instances`, once the host enables it (`enableInstances`).
    let instances = InstanceSlot()
    /// Puts an app on another seed in this one's place (`AppSwitcher`), when the host has one.
    let switcher = SwitcherSlot()
    /// Built on a seed posted to `/__mock/reset`: a bare reset goes back to the start seed.
    let runsGivenSeed: Bool

    /// Builds every system from the seed. `adminToken`, when set, lets non-loopback clients
    /// use `/__mock/*` by sending `X-Mock-Admin-Token: <token>`; `adminHosts` are `Host` names
    /// the admin paths accept besides the loopback ones (the configured listen host). `stubs`
    /// (`StubLoading.store`, `--mappings`) answers before the systems; nil: an empty store on the
    /// environment's clock.
    /// `proxyAll` (`--proxy-all URL`): what no stub and no route answers goes there (nil: the router's 404).
    package convenience init(seed: Seed, environment: MockEnvironment, stubs: StubStore? = nil, proxyAll: ProxyAll? = nil,
                             adminToken: String? = nil, adminHosts: [String] = [], journalSize: Int = 1000) {
        self.init(seed: seed, environment: environment, stubs: stubs ?? StubLoading.emptyStore(clock: environment.clock), proxyAll: proxyAll,
                  adminToken: adminToken, adminHosts: adminHosts, journalSize: journalSize, givenSeed: false, carrying: nil)
    }

    private init(seed: Seed, environment: MockEnvironment, stubs: StubStore, proxyAll: ProxyAll?, adminToken: String?, adminHosts: [String],
                 journalSize: Int, givenSeed: Bool, carrying: ControlPlane.Carried?) {
        self.proxyAll = proxyAll
        runsGivenSeed = givenSeed
        base = environment
        self.adminToken = adminToken
        self.adminHosts = adminHosts
        self.journalSize = journalSize
        self.seed = seed
        let environment = environment.resolved(with: seed.settings?.values, settings: SystemRegistry.settings)
        self.environment = environment
        let systems = SystemRegistry.makeSystems(seed: seed, environment: environment)
        environment.outbox.writesPhones(as: SystemRegistry.types.map { type in { type.phoneNumber($0) } })
        self.systems = systems
        self.stubs = stubs
        let control = ControlPlane(environment: environment, systems: systems, stubs: StubControls(store: stubs),
                                   journalSize: journalSize, carrying: carrying)
        self.control = control
        admin = MockAdmin(environment: environment, guard: AdminGuard(adminToken: adminToken, extraHosts: adminHosts, logger: environment.logger), systems: systems,
                          instances: instances, switcher: switcher, runsGivenSeed: givenSeed, resetAll: {
            // One group: the state file never holds some systems reset and others not.
            environment.changeGroup.run {
                for system in systems { system.reset() }
                environment.outbox.reset()
                control.reset()
            }
        }, control: control, stubs: stubs)
    }

    /// The health check, answered even when the connection table is full (the server keeps a
    /// slot for it: `ServerConfiguration.reservedPaths`).
    package static let healthPath = MockAdminRoute.health.pattern
    /// Admin paths that take a body up to `--max-import-body-bytes` (64 MiB): recorded stubs
    /// carry whole answers, and a 1 MiB one must import.
    package static let largeBodyPaths: Set<String> = ["/__admin/mappings", "/__admin/mappings/import", "/__admin/mappings/import-har"]

    /// The system of that name (`SystemRegistry.names`), or nil.
    package func system(named name: String) -> (any EmulatedSystem)? {
        systems.first { $0.name == name }
    }

    /// A router with every route of every system, each in its system's route group.
    package func makeRouter() -> Router {
        var router = Router()
        for system in systems {
            router.group(system.routeGroup) { system.register(in: &$0) }
        }
        // The document describes the finished router's routes (known once every route is in) from
        // the admin table's operations and the systems'; it is built on its first request.
        let finished = Locked<(routes: [(method: HTTPMethod?, pattern: String)], admin: AdminOperations)>(([], AdminOperations([])))
        let maxWaitMs = control.waiters.maxWaitMs
        let document = LazyDocument { [catalog = control.catalog] in
            let (routes, admin) = finished.withLock { $0 }
            return OpenAPIDocument.bytes(routes: routes, admin: admin.operations, systems: catalog, maxWaitMs: maxWaitMs)
        }
        let table = admin.routes(openAPI: { _, _ in .json(bytes: document.bytes) })
        // The admin table: health and the console page before the guard, the guard once around
        // every other admin route; `/` belongs to no system (a browser is sent to the console).
        router.group(MockAdmin.routeGroup) { r in for route in table where route.door == .open { r.add(route) } }
        router.group(MockAdmin.routeGroup, around: admin.guardAround, admit: admin.guard.admits) { r in
            for route in table where route.door == .guarded { r.add(route) }
        }
        for route in table where route.door == .root { router.add(route) }
        finished.withLock { [routes = router.routeTable] in $0 = (routes, AdminOperations(table)) }
        return router
    }

    /// The responder to serve: every route, behind the declared stages.
    package func makeResponder(durability: DurabilityGate? = nil) -> Responder {
        let router = makeRouter()
        return Responder(router: router, pipeline: pipeline(durability: durability, router: router))
    }

    /// The stages every request and WebSocket message goes through (`MockStages`, outermost
    /// first), composed once.
    func pipeline(durability: DurabilityGate?, router: Router) -> Pipeline {
        let stages = MockStages(journal: JournalStage(control), durability: DurabilityStage(durability, messageRefusal: messageRefusal),
                                faults: FaultStage(control), stubs: StubStage(stubs),
                                proxy: ProxyStage(proxyAll, router: router, recorder: stubs.recorder))
        // Made here, where the chain's type is concrete: no witness table between the closure and the chain.
        return Pipeline(request: { stages.handle($0, &$1, $2) }, message: { stages.handle($0, &$1, $2) },
                        admission: { stages.admit($0, $1) })
    }

    /// A message refused under `--state` (its change not written), in the owning system's shape.
    private var messageRefusal: @Sendable (String?, WebSocketPayload, String) -> String {
        { [systems] system, message, reason in
            systems.first { $0.name == system }?.stateRefusal(to: message, reason: reason)
                ?? JSONValue.object([("error", .string("the change could not be saved to the state file: \(reason)"))]).jsonText
        }
    }

    /// Lets `POST /__mock/instances` start up to `limit` isolated copies of this mock, each a
    /// server with `configuration`'s bounds on a new port of its host. Returns them (to stop on shutdown).
    @discardableResult
    package func enableInstances(configuration: ServerConfiguration, limit: Int = MockInstances.defaultLimit) -> MockInstances {
        let made = MockInstances(limit: limit, configuration: configuration, seed: seed, environment: base,
                                 adminToken: adminToken, journalSize: journalSize)
        instances.set(made)
        return made
    }

    /// Puts every system back to the seed and empties the outbox.
    package func reset() { admin.resetAll() }

    /// A new app on `seed`, sharing this one's clock, randomness, outbox, log, flags and event
    /// stream (the outbox keeps its messages: `--watch` empties it as a reset does).
    package func rebuilt(seed: Seed) -> MockApp { rebuilt(seed: seed, givenSeed: false) }

    /// A new app on a seed posted to `/__mock/reset` (a bare reset goes back to this one's seed):
    /// what a start runs when the state file was reset to one.
    package func rebuilt(givenSeed seed: Seed) -> MockApp { rebuilt(seed: seed, givenSeed: true) }

    /// `keepRecords`: the journal and the faults stay too (only the state is replaced).
    func rebuilt(seed: Seed, givenSeed: Bool, keepRecords: Bool = false) -> MockApp {
        let next = MockApp(seed: seed, environment: base, stubs: stubs, proxyAll: proxyAll, adminToken: adminToken, adminHosts: adminHosts,
                           journalSize: journalSize,
                           givenSeed: givenSeed, carrying: control.carried(records: keepRecords))
        // The instances already running stay where they are, and new ones still start from the start seed.
        if let running = instances.instances { next.instances.set(running) }
        return next
    }

    /// `PUT /__mock/state` off to the side: a copy of this app (same seed, journal, faults and
    /// events) with `document` restored into its systems, and then into the outbox and the clock
    /// it shares with this one. A document that does not load changes nothing (`StateDocument`).
    func restoredCopy(from document: [UInt8]) throws -> MockApp {
        let next = rebuilt(seed: seed, givenSeed: runsGivenSeed, keepRecords: true)
        try StateDocument(systems: next.systems, outbox: environment.outbox, clock: control.clock).replace(with: Data(document))
        return next
    }
}
