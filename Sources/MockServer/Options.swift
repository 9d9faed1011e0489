#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Routes
import EmulationKit
import MockControl
import Stubs

/// Everything the command line and the environment can set.
struct Options {
    var server: ServerConfiguration = {
        var configuration = ServerConfiguration()
        // A probe gets its answer even when clients fill the connection table.
        configuration.reservedPaths = [MockApp.healthPath]
        configuration.largeBodyPaths = MockApp.largeBodyPaths
        return configuration
    }()
    /// A seed file; nil means the seed compiled into the binary.
    var seedPath: String?
    /// A WireMock folder: `DIR/mappings/*.json`, bodies in `DIR/__files`.
    var mappingsPath: String?
    /// `--mappings-strict`: a refused mapping stops the start (exit 65), every one listed.
    var mappingsStrict = false
    /// `--global-response-templating`: every stub's response is a template.
    var globalTemplating = false
    var logLevel = LogLevel.info
    var logFormat = LogFormat.text
    var adminToken: String?
    /// `--admin-token` was given no value: `adminToken` was drawn at random (the banner prints it).
    var adminTokenGenerated = false
    var statePath: String?
    var watch = false
    var journalSize = 1000
    var maxInstances = MockInstances.defaultLimit
    var maxWaitMs = Waiters.defaultMaxWaitMs
    /// The most a stub's rendered body (or header value) may hold (`--max-stub-body-bytes`).
    var stubLimits = StubLimits()
    /// `--proxy-all URL`: what no stub and no route answers goes to this upstream.
    var proxyAll: Upstream?
    /// The systems' settings given as flags (over the seed's `settings`), by `SystemSetting.key`.
    var systemSettings: [String: SettingValue] = [:]

    /// One documented setting: its flag, environment variable, help text and how to apply a value.
    struct Setting: Sendable {
        let flag: String
        let env: String
        let valueName: String
        let help: String
        /// The values it takes, shown in `--help` after the help (`0–65535`, `text, json`); nil
        /// for free text (an address, a path) and switches. Numbers get it from `number` and
        /// `seconds`, which check the same bounds.
        var values: String? = nil
        let apply: @Sendable (inout Options, String) throws -> Void
    }

    /// A whole-number setting (`N`) in `range`; `--help` shows the range and `unit`.
    private static func number(_ flag: String, _ env: String, help: String, _ range: ClosedRange<Int>, unit: String = "",
                               set: @escaping @Sendable (inout Options, Int) -> Void) -> Setting {
        Setting(flag: flag, env: env, valueName: "N", help: help,
                values: "\(range.lowerBound)–\(range.upperBound)" + (unit.isEmpty ? "" : " " + unit)) { o, v in set(&o, try int(v, flag, range)) }
    }

    /// A duration setting (`SECONDS`, fractions allowed); `--help` shows its bounds.
    private static func seconds(_ flag: String, _ env: String, help: String, set: @escaping @Sendable (inout Options, Double) -> Void) -> Setting {
        Setting(flag: flag, env: env, valueName: "SECONDS", help: help,
                values: "above 0 to \(maxSeconds) (a year), fractions allowed") { o, v in set(&o, try seconds(v, flag)) }
    }

    struct UsageError: Error, CustomStringConvertible { let description: String }

    static let settings: [Setting] = serverSettings.prefix(while: { $0.flag != "--journal-size" })
        + SystemRegistry.settings.map { system in
            Setting(flag: system.flag, env: system.env, valueName: system.valueName, help: system.help, values: system.valuesHelp) { o, v in
                do throws(SystemSetting.Invalid) { o.systemSettings[system.key] = try system.parse(v) } catch { throw UsageError(description: error.description) }
            }
        }
        + serverSettings.drop(while: { $0.flag != "--journal-size" })

    /// The settings of the server itself; each system's come from the registry.
    private static let serverSettings: [Setting] = [
        Setting(flag: "--host", env: "MOCK_HOST", valueName: "ADDRESS", help: "address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface)") { o, v in o.server.host = v },
        number("--port", "MOCK_PORT", help: "port to listen on (default 8080; 0 picks a free port, printed in the banner)", 0...65535) { o, v in o.server.port = v },
        Setting(flag: "--seed", env: "MOCK_SEED", valueName: "PATH", help: "initial data (default: the bundled copy of the repository's seed.json)") { o, v in o.seedPath = v },
        Setting(flag: "--mappings", env: "MOCK_MAPPINGS", valueName: "DIR", help: "WireMock stub mappings for every other endpoint: DIR/mappings/**/*.json, bodies from DIR/__files; a mapping it cannot serve is logged and skipped (docs/stubs.md)") { o, v in o.mappingsPath = v },
        Setting(flag: "--root-dir", env: "MOCK_ROOT_DIR", valueName: "DIR", help: "WireMock's name for --mappings DIR") { o, v in o.mappingsPath = v },
        Setting(flag: "--mappings-strict", env: "MOCK_MAPPINGS_STRICT", valueName: "", help: "a mapping --mappings refuses stops the start (exit 65, every one listed) instead of being logged and skipped; for CI") { o, v in o.mappingsStrict = try flag(v, "--mappings-strict") },
        Setting(flag: "--global-response-templating", env: "MOCK_GLOBAL_RESPONSE_TEMPLATING", valueName: "", help: "every stub's response is a template, as WireMock's flag (without it a stub opts in with \"transformers\": [\"response-template\"])") { o, v in o.globalTemplating = try flag(v, "--global-response-templating") },
        Setting(flag: "--local-response-templating", env: "MOCK_LOCAL_RESPONSE_TEMPLATING", valueName: "", help: "WireMock's flag for what is the default here: a stub opts in to templating with \"transformers\": [\"response-template\"]") { o, v in _ = try flag(v, "--local-response-templating") },
        Setting(flag: "--proxy-all", env: "MOCK_PROXY_ALL", valueName: "URL", help: "every request no stub and no system route answers goes to this http:// or https:// upstream, its answer passed back (WireMock's flag; /__admin and /__mock never; docs/stubs.md, \"Proxying\")") { o, v in
            let upstream: Upstream
            do throws(Upstream.Invalid) { upstream = try Upstream(baseURL: v) } catch { throw UsageError(description: "--proxy-all: \(error.reason)") }
            o.proxyAll = upstream
        },
        Setting(flag: "--record-mappings", env: "MOCK_RECORD_MAPPINGS", valueName: "", help: "every proxied exchange (a proxyBaseUrl stub, --proxy-all) is kept as a persistent mapping, one per distinct request (WireMock's flag; docs/recording.md)") { o, v in o.stubLimits.recordMappings = try flag(v, "--record-mappings") },
        Setting(flag: "--use-chunked-encoding", env: "MOCK_USE_CHUNKED_ENCODING", valueName: "POLICY", help: "which stub answers go with Transfer-Encoding: chunked rather than Content-Length: always (default, as WireMock), never or body_file (bodyFileName answers); a mapping's own Content-Length always wins (WireMock's flag)",
                values: StubChunkedEncoding.allCases.map(\.rawValue).joined(separator: ", ")) { o, v in
            guard let policy = StubChunkedEncoding(policy: v) else {
                throw UsageError(description: "--use-chunked-encoding must be \(StubChunkedEncoding.choices), not \"\(v)\"")
            }
            o.stubLimits.chunkedEncoding = policy
        },
        Setting(flag: "--preserve-host-header", env: "MOCK_PRESERVE_HOST_HEADER", valueName: "", help: "proxied requests keep the client's Host instead of the upstream's (WireMock's flag)") { o, v in o.stubLimits.preserveHostHeader = try flag(v, "--preserve-host-header") },
        seconds("--proxy-timeout", "MOCK_PROXY_TIMEOUT", help: "a proxied request's upstream must answer within this, else 504; connecting gets at most 10 of it (default 30)") { o, v in
            o.server.outbound.readTimeout = v
            o.server.outbound.connectTimeout = min(10, v)
        },
        Setting(flag: "--outbound", env: "MOCK_OUTBOUND", valueName: "HOSTS", help: "which hosts proxies and webhooks may reach: all (default), loopback (CI: nothing leaves the machine) or HOST,HOST,… as the URLs write them; any other gets 502 with a hint") { o, v in
            guard let policy = OutboundSettings.policy(from: v) else { throw UsageError(description: "--outbound must be \(OutboundSettings.policyForms), not \"\(v)\"") }
            o.server.outbound.policy = policy
        },
        Setting(flag: "--trust-all-proxy-targets", env: "MOCK_TRUST_ALL_PROXY_TARGETS", valueName: "", help: "https upstreams of proxies and webhooks are not verified at all (WireMock's flag; by default certificates are checked against the system's trust store and the host name)") { o, v in o.server.outbound.trustAllTargets = try flag(v, "--trust-all-proxy-targets") },
        Setting(flag: "--trust-proxy-target", env: "MOCK_TRUST_PROXY_TARGET", valueName: "HOST", help: "this https upstream's certificate is not verified (WireMock's flag; repeatable, or HOST,HOST,… in the variable)") { o, v in
            guard let hosts = OutboundSettings.hosts(from: v) else { throw UsageError(description: "--trust-proxy-target must name a host, not \"\(v)\"") }
            o.server.outbound.trustedTargets.formUnion(hosts)
        },
        Setting(flag: "--proxy-ca-file", env: "MOCK_PROXY_CA_FILE", valueName: "FILE", help: "PEM certificates (a test or company CA) trusted for https upstreams besides the system's") { o, v in
            do throws(CertificateFile.Problem) { o.server.outbound.caFile = try ProxyCAFile(path: v) } catch {
                throw UsageError(description: "--proxy-ca-file \(v): \(error)")
            }
        },
        Setting(flag: "--log-level", env: "MOCK_LOG_LEVEL", valueName: "LEVEL", help: "info (default: a line per request, SMS and e-mails), debug (more detail), warning (quiet), error or off",
                values: LogLevel.allCases.map { "\($0)" }.joined(separator: ", ")) { o, v in
            guard let l = LogLevel(name: v) else { throw UsageError(description: "--log-level must be debug, info, warning, error or off, not \"\(v)\"") }
            o.logLevel = l
        },
        Setting(flag: "--log-format", env: "MOCK_LOG_FORMAT", valueName: "FORMAT", help: "text (default; coloured on a terminal) or json (one object per line)",
                values: LogFormat.allCases.map(\.rawValue).joined(separator: ", ")) { o, v in
            guard let f = LogFormat(rawValue: v.lowercased()) else { throw UsageError(description: "--log-format must be text or json, not \"\(v)\"") }
            o.logFormat = f
        },
        Setting(flag: "--admin-token", env: "MOCK_ADMIN_TOKEN", valueName: "TOKEN", help: "lets non-loopback clients use /__mock/* with header X-Mock-Admin-Token: TOKEN (at least 16 characters; given no value, one is generated and printed); a browser opens /__mock/?token=TOKEN once") { o, v in
            guard v.count >= AdminGuard.minimumTokenLength else {
                throw UsageError(description: "--admin-token must be at least \(AdminGuard.minimumTokenLength) characters (a short one is guessed quickly); give the flag no value to have one generated")
            }
            o.adminToken = v
            o.adminTokenGenerated = false
        },
        number("--max-instances", "MOCK_MAX_INSTANCES", help: "isolated mocks POST /__mock/instances may run at once, each on its own port (default 32; 0 turns them off)", 0...1024, unit: "instances") { o, v in o.maxInstances = v },
        number("--max-wait-ms", "MOCK_MAX_WAIT_MS", help: "longest wait of a ?waitMs= admin request (default and most 30000)", 0...30_000, unit: "ms") { o, v in o.maxWaitMs = v },
        number("--journal-size", "MOCK_JOURNAL_SIZE", help: "requests kept in /__mock/requests (default 1000; 0 turns the journal off)", 0...1_000_000, unit: "requests") { o, v in o.journalSize = v },
        number("--max-header-bytes", "MOCK_MAX_HEADER_BYTES", help: "request line + headers limit, answered 431 (default 16384)", 256...(1 << 24), unit: "bytes") { o, v in o.server.maxHeaderBytes = v },
        number("--max-request-line-bytes", "MOCK_MAX_REQUEST_LINE_BYTES", help: "request line limit, answered 414 (default 8192)", 64...(1 << 24), unit: "bytes") { o, v in o.server.maxRequestLineBytes = v },
        number("--max-body-bytes", "MOCK_MAX_BODY_BYTES", help: "request body limit, answered 413 (default 1048576)", 0...(1 << 30), unit: "bytes") { o, v in o.server.maxBodyBytes = v },
        number("--max-import-body-bytes", "MOCK_MAX_IMPORT_BODY_BYTES", help: "request body limit of POST /__admin/mappings and /__admin/mappings/import, for recorded stubs with large bodies (default 67108864; never below --max-body-bytes)", 0...(1 << 31), unit: "bytes") { o, v in o.server.maxLargeBodyBytes = v },
        seconds("--header-timeout", "MOCK_HEADER_TIMEOUT", help: "time to send a whole request before 408 (default 10)") { o, v in o.server.headerTimeout = v },
        seconds("--idle-timeout", "MOCK_IDLE_TIMEOUT", help: "idle keep-alive connections are closed after this (default 60)") { o, v in o.server.idleTimeout = v },
        number("--max-stub-body-bytes", "MOCK_MAX_STUB_BODY_BYTES", help: "a templated stub's rendered body or header value limit, answered 500 naming the stub (default 16777216)",
               StubLimits.maxBodyBytesRange, unit: "bytes") { o, v in o.stubLimits.maxBodyBytes = v },
        number("--max-ws-message-bytes", "MOCK_MAX_WS_MESSAGE_BYTES", help: "WebSocket message limit, closed with 1009 (default 1048576)", 125...(1 << 30), unit: "bytes") { o, v in o.server.maxWebSocketMessageBytes = v },
        number("--max-connections", "MOCK_MAX_CONNECTIONS", help: "open connections at most; more get 503 (default 10000, lowered to what ulimit -n allows)", 1...10_000_000, unit: "connections") { o, v in o.server.maxConnections = v },
        number("--max-websockets", "MOCK_MAX_WEBSOCKETS", help: "open WebSockets at most, within --max-connections; more get 503 so HTTP keeps room (default: half of --max-connections)", 1...10_000_000, unit: "WebSockets") { o, v in o.server.maxWebSocketConnections = v },
        number("--event-loops", "MOCK_EVENT_LOOPS", help: "event-loop threads (default: one per CPU core)", 1...256, unit: "threads") { o, v in o.server.eventLoops = v },
        Setting(flag: "--poller", env: "MOCK_POLLER", valueName: "KIND", help: "event-loop readiness: epoll (Linux), kqueue (macOS) or poll (both; default: the system's best)",
                values: PollerKind.allCases.map(\.rawValue).joined(separator: ", ")) { o, v in
            guard let kind = PollerKind(rawValue: v) else { throw UsageError(description: "--poller must be epoll, kqueue or poll, not \"\(v)\"") }
            guard kind.isAvailable else { throw UsageError(description: "--poller \(v) is not available on this system; use \(PollerKind.allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: " or "))") }
            o.server.poller = kind
        },
        seconds("--send-timeout", "MOCK_SEND_TIMEOUT", help: "a client whose pending output makes no progress this long is closed (default 30)") { o, v in o.server.sendTimeout = v },
        number("--max-pushed-output-bytes", "MOCK_MAX_PUSHED_OUTPUT_BYTES", help: "unread output of pushed WebSocket messages (/__mock/events, the console) summed over all clients; past it the client holding most is closed with 1008 (default 67108864)", 65_536...(1 << 40), unit: "bytes") { o, v in o.server.maxPushedOutputBytes = v },
        seconds("--ws-ping-interval", "MOCK_WS_PING_INTERVAL", help: "a silent WebSocket is pinged after this; no answer as long again closes it with 1001 (default 30)") { o, v in o.server.webSocketPingInterval = v },
        seconds("--ws-frame-timeout", "MOCK_WS_FRAME_TIMEOUT", help: "a started WebSocket frame or message left unfinished this long is closed with 1008 (default 30)") { o, v in o.server.webSocketFrameTimeout = v },
        Setting(flag: "--state", env: "MOCK_STATE", valueName: "PATH", help: "keep all state in this file across restarts (a change is answered once it is on disk; created from the seed if missing)") { o, v in o.statePath = v },
        Setting(flag: "--watch", env: "MOCK_WATCH", valueName: "", help: "reload the --seed file and the --mappings folder when they change on disk (inotify on Linux, polled every 300 ms on a Mac; a bad edit is logged and ignored)") { o, v in o.watch = try flag(v, "--watch") },
        seconds("--shutdown-grace", "MOCK_SHUTDOWN_GRACE", help: "time requests in flight get on SIGINT/SIGTERM (default 5)") { o, v in o.server.shutdownGrace = v },
    ]

    /// Environment first, then the command line, which wins.
    static func parse(arguments: [String], environment: [String: String]) throws -> Options {
        var options = Options()
        for setting in settings {
            if let value = environment[setting.env], !value.isEmpty {
                do { try setting.apply(&options, value) } catch let e as UsageError {
                    throw UsageError(description: "\(setting.env): \(e.description)")
                }
            }
        }
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            var name = arg
            var inlineValue: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            if name == "--help" || name == "-h" { throw HelpRequested() }
            if name == "--version" { throw VersionRequested() }
            guard let setting = settings.first(where: { $0.flag == name }) else {
                throw UsageError(description: "unknown option \(arg) (see --help)")
            }
            let value: String
            if name == "--admin-token" && inlineValue == nil && (i + 1 == arguments.count || arguments[i + 1].hasPrefix("--")) {
                // No value: a random token, printed in the banner.
                options.adminToken = generatedToken()
                options.adminTokenGenerated = true
                i += 1
                continue
            } else if setting.valueName.isEmpty {
                value = inlineValue ?? "true"   // a switch: `--watch`, `--watch=false`
            } else if let inlineValue {
                value = inlineValue
            } else {
                guard i + 1 < arguments.count else { throw UsageError(description: "\(name) needs a value \(setting.valueName)") }
                i += 1
                value = arguments[i]
            }
            try setting.apply(&options, value)
            i += 1
        }
        return options
    }

    /// 32 hex digits (128 bits) from the system's secure generator.
    static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<32).map { _ in hex[Int.random(in: 0..<16, using: &generator)] }, as: UTF8.self)
    }

    struct HelpRequested: Error {}
    struct VersionRequested: Error {}

    static var usage: String {
        var lines = [
            "mock-server — emulates the login backends of five mobile apps (see README.md)",
            "",
            "usage: mock-server [options]     (each option can also be set by its environment variable)",
            "",
        ]
        for s in settings {
            let left = "  \(s.flag) \(s.valueName)".padded(to: 34)
            let values = s.values.map { "  [\(s.valueName): \($0)]" } ?? ""
            lines.append("\(left)\(s.help)\(values)  [$\(s.env)]")
        }
        lines.append("  --version".padded(to: 34) + "print the version and exit")
        lines.append("  -h, --help".padded(to: 34) + "this text")
        return lines.joined(separator: "\n")
    }

    private static func int(_ text: String, _ flag: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(description: "\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), not \"\(text)\"")
        }
        return v
    }

    private static func flag(_ text: String, _ flag: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw UsageError(description: "\(flag) is on or off (1/0, true/false), not \"\(text)\"")
        }
    }

    /// A duration's bound: the server's nanosecond arithmetic can never overflow (a year is plenty).
    private static let maxSeconds = 31_536_000

    private static func seconds(_ text: String, _ flag: String) throws -> Double {
        guard let v = Double(text), v > 0, v <= Double(maxSeconds) else {
            throw UsageError(description: "\(flag) must be a number of seconds above 0 and at most \(maxSeconds), not \"\(text)\"")
        }
        return v
    }
}
