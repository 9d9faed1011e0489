import Foundation
import HTTPServer
import Routes
import EmulationKit
import MockControl
import Stubs

extension EmbeddedMockServer {
    /// What the `mock-server` command line sets, for a server in this process. Every member has
    /// the command line's default, so a test names only what it changes:
    ///
    ///     let server = try EmbeddedMockServer(smsCode: "1234")
    ///     let other = try EmbeddedMockServer(.init(seed: .file("fixtures/seed.json"), clockOffset: 3600))
    public struct Settings: Sendable {
        /// Where the initial data comes from (`--seed`); a seed may leave sections out.
        public var seed: SeedSource
        /// The address to listen on (`--host`).
        public var host: String
        /// The port (`--port`); 0 picks a free one, read it from ``EmbeddedMockServer/port``.
        public var port: Int
        /// Log verbosity (`--log-level`); lines go to standard error.
        public var logLevel: LogLevel
        /// Lets clients other than loopback use `/__mock/` with `X-Mock-Admin-Token` (`--admin-token`).
        public var adminToken: String?
        /// Every musbooking SMS code is this, 1 to 9 digits (`--sms-code`), so a UI test can type
        /// it; nil: random codes. Wins over the seed's `settings.smsCode`.
        public var smsCode: String?
        /// Seconds the mock's clock runs ahead of the real one from the start (negative: behind).
        /// A reset keeps it; `POST /__mock/clock` adds to it and `DELETE /__mock/clock` comes back to it.
        public var clockOffset: TimeInterval
        /// Keeps all state in this file across runs (`--state`): created from the seed if
        /// missing, and every change is answered once it is on disk.
        public var statePath: String?
        /// Requests kept in `/__mock/requests` (`--journal-size`; 0 turns the journal off).
        public var journalSize: Int
        /// The systems' other settings by their key in the seed's `settings` (for example
        /// `"maxPendingSMSCodes": "100"`), as their flags take them; ``smsCode`` wins over `"smsCode"` here.
        public var systemSettings: [String: String]
        /// A WireMock folder (`mappings/*.json`, `__files/`; `--mappings`), such as a test
        /// bundle's resource folder, whose stubs answer every other endpoint; a folder that does
        /// not load throws, naming the file and the place.
        public var mappings: URL?
        /// Every request no stub and no system route answers goes to this `http://` or
        /// `https://` upstream and its answer comes back (`--proxy-all`); `/__admin` and
        /// `/__mock` never. A test's upstream is usually another server on loopback.
        public var proxyAll: URL?
        /// Every proxied exchange is kept as a mapping, one per distinct request, written to
        /// ``mappings`` when it is set (`--record-mappings`).
        public var recordMappings: Bool
        /// Proxied requests keep the client's `Host` instead of the upstream's (`--preserve-host-header`).
        public var preserveHostHeader: Bool
        /// Which hosts proxies and webhooks may reach (`--outbound`): `"all"`, `"loopback"`
        /// (nothing leaves the machine) or `"HOST,HOST,…"` as the URLs write them.
        public var outbound: String
        /// https upstreams of proxies and webhooks are not verified at all (`--trust-all-proxy-targets`).
        public var trustAllProxyTargets: Bool
        /// A file of certificates (a test CA) trusted for https upstreams besides the system's
        /// (`--proxy-ca-file`): PEM, or on Darwin also one DER certificate. Read when the server
        /// is made: a file that is missing, larger than 1 MiB or holds no certificate throws.
        public var proxyCAFile: String?
        /// Which stub answers go with `Transfer-Encoding: chunked` rather than `Content-Length`
        /// (`--use-chunked-encoding`): `"always"` (as WireMock), `"never"` or `"body_file"`
        /// (`bodyFileName` answers). A mapping's own `Content-Length` always wins.
        public var useChunkedEncoding: String

        /// The command line's defaults, but a free port and warnings only in the log.
        public init(seed: SeedSource = .bundled, host: String = "127.0.0.1", port: Int = 0, logLevel: LogLevel = .warning,
                    adminToken: String? = nil, smsCode: String? = nil, clockOffset: TimeInterval = 0, statePath: String? = nil,
                    journalSize: Int = 1000, systemSettings: [String: String] = [:], mappings: URL? = nil,
                    proxyAll: URL? = nil, recordMappings: Bool = false, preserveHostHeader: Bool = false, outbound: String = "all",
                    trustAllProxyTargets: Bool = false, proxyCAFile: String? = nil, useChunkedEncoding: String = "always") {
            self.seed = seed
            self.host = host
            self.port = port
            self.logLevel = logLevel
            self.adminToken = adminToken
            self.smsCode = smsCode
            self.clockOffset = clockOffset
            self.statePath = statePath
            self.journalSize = journalSize
            self.systemSettings = systemSettings
            self.mappings = mappings
            self.proxyAll = proxyAll
            self.recordMappings = recordMappings
            self.preserveHostHeader = preserveHostHeader
            self.outbound = outbound
            self.trustAllProxyTargets = trustAllProxyTargets
            self.proxyCAFile = proxyCAFile
            self.useChunkedEncoding = useChunkedEncoding
        }
    }

    /// A setting the server cannot start with: names it and says what it takes.
    public struct InvalidSetting: Error, CustomStringConvertible, Sendable {
        /// What is wrong, naming the setting.
        public let description: String
    }

    /// Starts the mock with these settings and returns once it accepts connections.
    ///
    /// - Throws: ``InvalidSetting`` for a value the command line would refuse; ``ShortAdminToken``;
    ///   for a seed or a state file that does not load, an error whose description names the file
    ///   and what is wrong in it; the socket's error when the port cannot be bound.
    public convenience init(_ settings: Settings) throws {
        var configuration = ServerConfiguration()
        configuration.host = settings.host
        configuration.port = settings.port
        configuration.eventLoops = 1
        configuration.shutdownGrace = 1
        guard (0...1_000_000).contains(settings.journalSize) else {
            throw InvalidSetting(description: "journalSize must be in 0...1000000, not \(settings.journalSize)")
        }
        guard settings.clockOffset.isFinite, abs(settings.clockOffset) <= OffsetClock.maxOffsetSeconds else {
            throw InvalidSetting(description: "clockOffset must be a finite number of seconds, at most \(Int(OffsetClock.maxOffsetSeconds)) either way")
        }
        if let token = settings.adminToken, !token.isEmpty, token.count < AdminGuard.minimumTokenLength { throw ShortAdminToken() }
        let logger = Logger(level: settings.logLevel.level)
        let clock: any Clock = settings.clockOffset == 0 ? SystemClock() : ShiftedClock(offset: settings.clockOffset)
        var environment = MockEnvironment(clock: clock, logger: logger)
        environment.settings = try EmbeddedMockServer.systemSettings(settings)
        configuration.outbound = try EmbeddedMockServer.outbound(settings)
        var limits = StubLimits()
        limits.recordMappings = settings.recordMappings
        limits.preserveHostHeader = settings.preserveHostHeader
        guard let chunked = StubChunkedEncoding(policy: settings.useChunkedEncoding) else {
            throw InvalidSetting(description: "useChunkedEncoding must be \(StubChunkedEncoding.choices), not \"\(settings.useChunkedEncoding)\"")
        }
        limits.chunkedEncoding = chunked
        var stubs: StubStore?
        if let mappings = settings.mappings {
            // As the command line: a refused mapping is logged and listed at /__admin/mappings/refused; the rest load.
            let loaded = try StubLoading.store(root: mappings.path, clock: environment.clock, limits: limits)
            for line in loaded.loadRecord.current.lines() { logger.warning(line) }
            stubs = loaded
        } else if limits != StubLimits() {
            stubs = StubLoading.emptyStore(clock: environment.clock, limits: limits)
        }
        var proxyAll: ProxyAll?
        if let url = settings.proxyAll {
            do throws(Upstream.Invalid) {
                proxyAll = ProxyAll(upstream: try Upstream(baseURL: url.absoluteString), preserveHost: settings.preserveHostHeader)
            } catch {
                throw InvalidSetting(description: "proxyAll: \(error.reason)")
            }
        }
        let app = MockApp(seed: try EmbeddedMockServer.load(settings.seed), environment: environment, stubs: stubs, proxyAll: proxyAll,
                          adminToken: settings.adminToken, adminHosts: [configuration.host], journalSize: settings.journalSize)
        try self.init(app: app, configuration: configuration, logger: logger, statePath: settings.statePath)
    }

    /// The outbound client's settings, checked as their flags check them.
    static func outbound(_ settings: Settings) throws -> OutboundSettings {
        var outbound = OutboundSettings()
        guard let policy = OutboundSettings.policy(from: settings.outbound) else {
            throw InvalidSetting(description: "outbound must be \(OutboundSettings.policyForms), not \"\(settings.outbound)\"")
        }
        outbound.policy = policy
        outbound.trustAllTargets = settings.trustAllProxyTargets
        if let file = settings.proxyCAFile {
            do throws(CertificateFile.Problem) { outbound.caFile = try ProxyCAFile(path: file) } catch {
                throw InvalidSetting(description: "proxyCAFile \(file): \(error)")
            }
        }
        return outbound
    }

    /// The systems' settings parsed as their flags parse them.
    static func systemSettings(_ settings: Settings) throws -> [String: SettingValue] {
        var given = settings.systemSettings
        if let code = settings.smsCode { given["smsCode"] = code }
        var values: [String: SettingValue] = [:]
        for (key, text) in given {
            guard let setting = SystemRegistry.settings.first(where: { $0.key == key }) else {
                let keys = SystemRegistry.settings.map(\.key).joined(separator: ", ")
                throw InvalidSetting(description: "no system setting \"\(key)\" (settings: \(keys))")
            }
            do throws(SystemSetting.Invalid) { values[key] = try setting.parse(text) } catch {
                // The flag's own words, with the setting's name as this API spells it.
                throw InvalidSetting(description: error.description.replacingOccurrences(of: setting.flag, with: key))
            }
        }
        return values
    }
}

/// The real clock, shifted: the base under the control plane's offset, so a reset comes back to it.
struct ShiftedClock: Clock {
    let offset: TimeInterval
    func now() -> Date { Date().addingTimeInterval(offset) }
}
