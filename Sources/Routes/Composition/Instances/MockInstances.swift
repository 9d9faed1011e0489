#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import EmulationKit
import MockAdminWire

/// `POST /__mock/instances` (docs/control-plane.md, "Arrange, isolate, verify"): complete, isolated mocks (the five systems, outbox,
/// journal, faults, clock, console, their own `/__mock/`) on new ports of the same host, each
/// with the main server's bounds, for one test or one simulator clone. In memory only: they
/// end with the process, and the `--state` file follows the main instance only.
package final class MockInstances: Sendable {
    /// One running instance.
    package struct Instance: Sendable {
        package let id: String
        package let port: Int
        package let baseURL: String
        let app: MockApp
        let server: Server
    }

    /// Default for `--max-instances`.
    package static let defaultLimit = 32

    package let limit: Int
    private let configuration: ServerConfiguration
    private let seed: Seed
    private let environment: MockEnvironment
    private let adminToken: String?
    private let journalSize: Int
    /// The running instances and the creations under way (counted against the limit before their
    /// server starts), under one lock: the limit is checked where a place is taken.
    private struct Places {
        var running: [Instance] = []
        var starting = 0
    }

    private let places = Locked(Places())

    /// `configuration` is the main server's (its bounds; the port is picked per instance);
    /// `seed` the start seed; `environment` the main one before the seed's settings (its flags,
    /// logger, randomness and base clock; each instance gets its own outbox and clock offset).
    init(limit: Int, configuration: ServerConfiguration, seed: Seed, environment: MockEnvironment, adminToken: String?, journalSize: Int) {
        self.limit = max(0, limit)
        var configuration = configuration
        configuration.port = 0
        self.configuration = configuration
        self.seed = seed
        self.environment = environment
        self.adminToken = adminToken
        self.journalSize = journalSize
    }

    /// Why an instance was not made: 400 (bad seed or setting, named), 503 (the limit, or no port).
    enum Problem: Error, CustomStringConvertible {
        case invalid(String)
        case unavailable(String, hint: String)

        var description: String {
            switch self {
            case .invalid(let text), .unavailable(let text, _): return text
            }
        }
    }

    /// Starts one: on `seed` (else the start seed), with `settings` by key (`smsCode`, a cap; else
    /// the main server's).
    func create(seed given: Seed?, settings: [String: SettingValue]) throws(Problem) -> Instance {
        let admitted = places.withLock { p -> Bool in
            guard p.starting + p.running.count < limit else { return false }
            p.starting += 1
            return true
        }
        guard admitted else {
            throw .unavailable("at most \(limit) instances run at once",
                               hint: "Stop instances you no longer need (DELETE /__mock/instances/<id>) or start the server with a higher --max-instances.")
        }
        var started = false
        defer { if !started { places.withLock { $0.starting -= 1 } } }
        let id = environment.random.token()
        // Its lines (requests, SMS, faults) say whose they are: the main server's log is shared.
        let logger = environment.logger.tagged(LogTag(key: "instance", value: id, short: String(id.prefix(8))))
        var env = MockEnvironment(clock: OffsetClock(base: environment.clock), random: environment.random, logger: logger)
        env.settings = environment.settings
        env.settings.merge(settings) { _, given in given }
        let app = MockApp(seed: given ?? seed, environment: env, adminToken: adminToken,
                          adminHosts: [configuration.host], journalSize: journalSize)
        let server = Server(configuration: configuration, responder: app.makeResponder(), logger: logger)
        do { try server.start() } catch {
            throw .unavailable("cannot listen on a new port of \(configuration.host): \(error)", hint: "The host may be out of ports or file descriptors; stop some instances.")
        }
        let host = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host == "::" ? "::1" : configuration.host
        let urlHost = host.contains(":") ? "[\(host)]" : host
        let instance = Instance(id: id, port: server.port, baseURL: "http://\(urlHost):\(server.port)", app: app, server: server)
        // The place taken at the start becomes the instance's, in the same step.
        places.withLock { p in
            p.starting -= 1
            p.running.append(instance)
        }
        started = true
        environment.logger.info("instance \(instance.id) started on \(instance.baseURL)")
        return instance
    }

    /// The running instances, oldest first.
    package var instances: [Instance] { places.withLock { $0.running } }

    /// Stops one (its connections closed once their answers are sent); false if there is none.
    /// Returns at once: the server winds down on another thread, not on the caller's loop.
    func stop(id: String) -> Bool {
        guard let instance = places.withLock({ p -> Instance? in
            guard let i = p.running.firstIndex(where: { $0.id == id }) else { return nil }
            return p.running.remove(at: i)
        }) else { return false }
        instance.server.shutdown()
        environment.logger.info("instance \(id) stopped")
        return true
    }

    /// Stops every instance accepting and closing their connections, without waiting for their
    /// loops: for a `deinit`, which must not block.
    package func shutdownAll() {
        let all = places.withLock { p -> [Instance] in defer { p.running = [] }; return p.running }
        for instance in all { instance.server.shutdown() }
    }

    /// Stops every instance and waits for them (the main server's shutdown).
    package func stopAll() {
        let all = places.withLock { p -> [Instance] in defer { p.running = [] }; return p.running }
        for instance in all { instance.server.shutdown() }
        for instance in all { instance.server.waitUntilStopped() }
    }

    /// An instance as the API shows it.
    static func json(_ instance: Instance) -> JSONValue {
        (try? JSONValue(encoding: MockInstance(id: instance.id, baseURL: instance.baseURL, port: instance.port))) ?? .null
    }
}

/// Where an app finds its instances once its host enables them (nil: not this server's).
final class InstanceSlot: Sendable {
    private let value = Locked<MockInstances?>(nil)
    func set(_ instances: MockInstances) { value.withLock { $0 = instances } }
    var instances: MockInstances? { value.withLock { $0 } }
}
