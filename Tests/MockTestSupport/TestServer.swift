import Foundation
import TestSupport
import HTTPServer
import Routes
import EmulationKit
import Stubs

/// The whole mock (seed.json of this repository, a manual clock, seeded randomness) for one test.
///
/// Requests go over real sockets to a real `Server` on an ephemeral port; `responder` is there
/// for the few cases a socket cannot express (a non-loopback peer address).
package final class TestServer: @unchecked Sendable {
    package let app: MockApp
    package let clock: ManualClock
    package let outbox: Outbox
    package let responder: Responder
    package let server: Server
    /// The isolated copies `POST /__mock/instances` started.
    package let instances: MockInstances
    /// Puts the app on another seed for `POST /__mock/reset {"seed": …}`.
    package let switcher: AppSwitcher
    /// The port the server bound on 127.0.0.1.
    package var port: Int { server.port }

    /// The repository's `seed.json`, found from this file's path.
    package static var repositorySeedPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("seed.json").path
    }

    /// `stubs` makes the app's stub store from the mock's clock (`StubLoading.store(root:clock:)`
    /// for a folder, `StubLoading.emptyStore` for flags); nil, as by default, an empty one.
    /// `proxyAll`: `--proxy-all`'s upstream.
    package init(seedPath: String = TestServer.repositorySeedPath, clock: ManualClock = ManualClock(),
                random: any RandomSource = SeededRandomSource(seed: 42),
                adminToken: String? = nil, journalSize: Int = 1000, maxInstances: Int = 4,
                logger: Logger = .silent,
                configure: (inout ServerConfiguration) -> Void = { _ in },
                environment: (inout MockEnvironment) -> Void = { _ in },
                stubs: (_ clock: any Clock) throws -> StubStore? = { _ in nil },
                proxyAll: ProxyAll? = nil) throws {
        self.clock = clock
        var env = MockEnvironment(clock: clock, random: random, logger: logger)
        environment(&env)
        outbox = env.outbox
        app = MockApp(seed: try Seed.load(path: seedPath), environment: env, stubs: try stubs(env.clock), proxyAll: proxyAll,
                      adminToken: adminToken, journalSize: journalSize)
        responder = app.makeResponder()
        var config = ServerConfiguration()
        config.host = "127.0.0.1"
        config.port = 0
        config.eventLoops = 2
        config.shutdownGrace = 1
        config.reservedPaths = [MockApp.healthPath]
        config.largeBodyPaths = MockApp.largeBodyPaths
        try config.applyTestEnvironment()
        configure(&config)
        instances = app.enableInstances(configuration: config, limit: maxInstances)
        server = Server(configuration: config, responder: responder, logger: logger)
        switcher = AppSwitcher(app: app, server: server)
        try server.start()
    }

    deinit { stop() }

    /// The header the console sends on its writes. Since revision 4 of the admin guard it is
    /// needed by none (the guard refuses what a browser's cross-site write shows instead); tests
    /// that send it check that it is still accepted.
    package static let adminWrite: [(String, String)] = [("X-Mock-Admin", "1")]

    /// Sends one request and waits for its response, at most `timeout` seconds for each read (a
    /// deadline for slow machines and sanitizers, not a measure).
    package func request(_ method: String, _ path: String, headers: [(String, String)] = [],
                        body: [UInt8] = [], timeout: Double = 5) throws -> TestResponse {
        let client = try TestHTTPClient(port: port, timeout: timeout)
        try client.sendRequest(method, path, headers: headers, body: body)
        var response = try client.readResponse(head: method == "HEAD")
        while response.status < 200 { response = try client.readResponse(head: method == "HEAD") }
        return response
    }

    /// Sends a JSON body (any Foundation JSON object) with `Content-Type: application/json`.
    package func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: Any) throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: json)
        return try request(method, path, headers: headers + [("Content-Type", "application/json")], body: Array(data))
    }

    /// Sends a raw JSON text body with `Content-Type: application/json`.
    package func request(_ method: String, _ path: String, headers: [(String, String)] = [], jsonText: String,
                         timeout: Double = 5) throws -> TestResponse {
        try request(method, path, headers: headers + [("Content-Type", "application/json")], body: Array(jsonText.utf8), timeout: timeout)
    }

    /// Sends an `application/x-www-form-urlencoded` body.
    package func request(_ method: String, _ path: String, headers: [(String, String)] = [], form: [(String, String)]) throws -> TestResponse {
        let body = form.map { "\(TestServer.formEscape($0.0))=\(TestServer.formEscape($0.1))" }.joined(separator: "&")
        return try request(method, path, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    /// Percent-escapes for a form value (space as `+`).
    static func formEscape(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._* ")
        return (s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s).replacingOccurrences(of: " ", with: "+")
    }

    /// A fresh raw connection to the server.
    package func connect() throws -> TestHTTPClient { try TestHTTPClient(port: port) }

    /// Stops the server and waits for its loops (idempotent).
    package func stop() {
        instances.stopAll()
        server.shutdown()
        server.waitUntilStopped()
    }
}
