@_exported import MockServerAdminClient
import Foundation
import HTTPServer
import Routes
import EmulationKit
import MockControl

/// The whole mock (five systems and `/__mock/`) running in this process, for tests: start it on
/// a free port, point the client under test at `baseURL`, read the outbox, reset, stop.
///
///     let server = try EmbeddedMockServer()
///     defer { server.stop() }
///     // … requests to server.baseURL …
///     let code = server.sms(phone: "9123456789").last?.code
public final class EmbeddedMockServer: Sendable {
    /// Where the initial data comes from.
    public enum SeedSource: Sendable {
        /// The repository's `seed.json`, compiled in.
        case bundled
        /// A seed file.
        case file(String)
        /// Seed JSON text.
        case json(String)
    }

    /// Log verbosity of an embedded server (its lines go to standard error).
    public enum LogLevel: Sendable {
        /// Everything, including each request's details.
        case debug
        /// A line per request, SMS and e-mail (the command line's default).
        case info
        /// Only what went wrong or may surprise (the embedded default: a test's output stays quiet).
        case warning
        /// Only failures.
        case error
        /// Nothing.
        case off
    }

    private let app: MockApp
    let server: Server
    private let instances: MockInstances
    private let switcher: AppSwitcher
    /// The state file's store (`statePath`), closed once by `stop()` or `waitUntilStopped()`.
    private let persistence: Locked<MockPersistence?>
    /// The host the server listens on.
    public let host: String

    /// Starts the mock on `host`:`port` (0: a free port) and returns once it accepts connections.
    /// Every argument has the command line's default; see ``Settings`` for what each one does.
    ///
    ///     let server = try EmbeddedMockServer(smsCode: "1234")   // every musbooking code is 1234
    ///     let stubbed = try EmbeddedMockServer(mappings: folder)  // WireMock stubs for other endpoints
    public convenience init(seed: SeedSource = .bundled, host: String = "127.0.0.1", port: Int = 0,
                            logLevel: LogLevel = .warning, adminToken: String? = nil, smsCode: String? = nil,
                            clockOffset: TimeInterval = 0, statePath: String? = nil, mappings: URL? = nil) throws {
        try self.init(Settings(seed: seed, host: host, port: port, logLevel: logLevel, adminToken: adminToken,
                               smsCode: smsCode, clockOffset: clockOffset, statePath: statePath, mappings: mappings))
    }

    /// An `adminToken` shorter than `AdminGuard.minimumTokenLength` characters (easily guessed).
    public struct ShortAdminToken: Error, CustomStringConvertible {
        public var description: String { "the admin token must be at least \(AdminGuard.minimumTokenLength) characters" }
    }

    /// Starts the mock with every server setting and the logger given (the package's own tests;
    /// users start it with ``Settings``).
    package convenience init(seed: Seed, configuration: ServerConfiguration, logger: Logger, adminToken: String? = nil) throws {
        if let adminToken, !adminToken.isEmpty, adminToken.count < AdminGuard.minimumTokenLength { throw ShortAdminToken() }
        let app = MockApp(seed: seed, environment: MockEnvironment(logger: logger), adminToken: adminToken,
                          adminHosts: [configuration.host])
        try self.init(app: app, configuration: configuration, logger: logger)
    }

    /// Serves an app built by the caller (e.g. with a state file already loaded into it).
    package convenience init(app: MockApp, configuration: ServerConfiguration, logger: Logger) throws {
        try self.init(app: app, configuration: configuration, logger: logger, statePath: nil)
    }

    /// Serves `app`, with its state kept in the file at `statePath` when one is given (as `--state`).
    init(app: MockApp, configuration: ServerConfiguration, logger: Logger, statePath: String?) throws {
        var configuration = configuration
        // A probe gets its answer even when clients fill the connection table.
        if configuration.reservedPaths.isEmpty { configuration.reservedPaths = [MockApp.healthPath] }
        self.app = app
        instances = app.enableInstances(configuration: configuration)
        let server = Server(configuration: configuration, responder: app.makeResponder(), logger: logger)
        self.server = server
        // Before the server starts: the first request already sees the restored state.
        let persistence = try statePath.map { try MockPersistence.start(app: app, server: server, statePath: $0, watchSeed: nil, logger: logger) }
        self.persistence = Locked(persistence)
        if let persistence {
            switcher = AppSwitcher(app: app, server: server, responder: persistence.responder(for:)) { [store = persistence.store] next in
                store?.reattach(next.persistentParts)
            }
        } else {
            switcher = AppSwitcher(app: app, server: server)
        }
        host = configuration.host
        do { try server.start() } catch {
            persistence?.close()
            throw error
        }
    }

    /// A server its owner let go of without `stop()` (a test that threw before its tear-down)
    /// stops accepting and closes its port, and so does every instance it started through
    /// `POST /__mock/instances`; the loops finish on their own threads (no waiting here).
    deinit {
        instances.shutdownAll()
        server.shutdown()
    }

    /// Decodes a seed source; errors name the file or say "bundled seed".
    package static func load(_ source: SeedSource) throws -> Seed {
        switch source {
        case .bundled: return try Seed.bundled()
        case .file(let path): return try Seed.load(path: path)
        case .json(let text): return try Seed.decode(Data(text.utf8), source: "seed JSON")
        }
    }

    /// The text of the bundled seed (the repository's `seed.json`), to start from when a test wants a variant.
    public static var bundledSeedJSON: String { BundledSeed.json }

    /// The port actually bound.
    public var port: Int { server.port }

    /// `http://127.0.0.1:<port>` (the listening address; loopback when it listens on every interface).
    public var baseURL: URL {
        let reachable = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        let hostForURL = reachable.contains(":") ? "[\(reachable)]" : reachable
        return URL(string: "http://\(hostForURL):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The launch environment that points an app under UI test at this server:
    /// `app.launchEnvironment.merge(server.launchEnvironment()) { $1 }` (see `MockLaunchEnvironment`).
    public func launchEnvironment(key: String = MockLaunchEnvironment.defaultKey) -> [String: String] {
        MockLaunchEnvironment.environment(baseURL: baseURL, key: key)
    }

    /// A client of this server's `/__mock/` admin API (the same one an XCUITest uses).
    public var admin: MockAdminClient { MockAdminClient(baseURL: baseURL) }

    /// Every system back to its seed, the outbox emptied.
    public func reset() { switcher.app.reset() }

    /// Every SMS sent so far, oldest first; with `phone`, only those to it (written in any form).
    public func sms(phone: String? = nil) -> [MockSMS] {
        switcher.app.environment.outbox.sms(phone: phone)
    }

    /// Every e-mail sent so far, oldest first; with `to`, only those to that address.
    public func emails(to address: String? = nil) -> [MockEmail] {
        switcher.app.environment.outbox.emails(to: address)
    }

    /// Stops accepting, lets requests in flight finish, and waits for the loops (idempotent).
    public func stop() {
        instances.stopAll()
        server.shutdown()
        server.waitUntilStopped()
        closeState()
    }

    /// Writes the state file's last changes and lets it go (once).
    private func closeState() {
        persistence.withLock { current -> MockPersistence? in defer { current = nil }; return current }?.close()
    }

    /// Stops the server from another thread (a signal handler) without waiting.
    public func beginShutdown() { server.shutdown() }

    /// Blocks until the server has stopped (and, with a state file, its last changes are written).
    public func waitUntilStopped() {
        server.waitUntilStopped()
        closeState()
    }
}

extension EmbeddedMockServer.LogLevel {
    var level: HTTPServer.LogLevel {
        switch self {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        case .off: .off
        }
    }
}
