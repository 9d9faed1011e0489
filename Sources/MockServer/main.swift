#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Routes
import Stubs
import EmulationKit
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import EmulationKit

// First, before any thread exists: SIGINT/SIGTERM/SIGHUP stay pending until the trap's thread takes them.
let signalTrap = SignalTrap.block([SIGINT, SIGTERM, SIGHUP])
SignalTrap.ignoreBrokenPipes()
#if os(macOS)
// --watch wakes on FSEvents here (the libraries poll on Darwin: they leave CoreServices out).
FSEventsWakeups.install()
#endif

/// Prints to standard error and exits with the given status.
func exitWith(_ message: String, status: Int32) -> Never {
    LogOutput.writeAll(message + "\n", to: 2)
    exit(status)
}

/// A start that fails once the logger exists: under `--log-format json` each message is a JSON
/// error line (so `2>&1 | jq` reads it), else plain text as `exitWith`.
func startFailed(_ messages: [String], status: Int32, logger: Logger) -> Never {
    guard logger.format == .json else { exitWith(messages.map { "mock-server: " + $0 }.joined(separator: "\n"), status: status) }
    for message in messages { logger.error(message) }
    logger.flush()
    exit(status)
}

let options: Options
do {
    options = try Options.parse(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch is Options.HelpRequested {
    print(Options.usage)
    exit(0)
} catch is Options.VersionRequested {
    print("mock-server \(MockServerVersion.current)")
    exit(0)
} catch {
    exitWith("mock-server: \(error)", status: 64)
}

// Colour only for a person at a terminal that shows it (not Xcode's console, not under NO_COLOR).
let colour = options.logFormat == .text
    && TerminalColour.wanted(isTerminal: isatty(2) != 0, environment: ProcessInfo.processInfo.environment)
let logger = Logger(level: options.logLevel, format: options.logFormat, colour: colour)
let seed: Seed
do {
    seed = try options.seedPath.map { try Seed.load(path: $0) } ?? Seed.bundled()
} catch let error as SeedError {
    startFailed([logger.format == .json ? error.withHintInline : error.withHint], status: 65, logger: logger)
} catch {
    startFailed(["\(error)"], status: 65, logger: logger)
}

var environment = MockEnvironment(logger: logger)
environment.maxWaitMs = options.maxWaitMs
environment.settings = options.systemSettings
// The stub mappings: the app holds them (nil: an empty store).
var stubs: StubStore?
if let mappingsPath = options.mappingsPath {
    // Each mapping loads alone: a refused one is logged (file, pointer, reason) and listed at
    // /__admin/mappings/refused; --mappings-strict makes any of them stop the start, all listed.
    // Only a missing DIR/mappings stops it otherwise.
    let loaded: StubStore
    do {
        loaded = try StubLoading.store(root: mappingsPath, clock: environment.clock, templateAll: options.globalTemplating,
                                       limits: options.stubLimits)
    } catch {
        startFailed(["\(error)"], status: 65, logger: logger)
    }
    let report = loaded.loadRecord.current
    if options.mappingsStrict && !report.refused.isEmpty {
        startFailed(report.refused.map(\.line) + ["\(report.refused.count) mapping(s) refused; --mappings-strict starts only with every mapping loaded"],
                    status: 65, logger: logger)
    }
    for line in report.lines() { logger.warning(line) }
    stubs = loaded
} else if options.globalTemplating || options.stubLimits != StubLimits() {
    stubs = StubLoading.emptyStore(clock: environment.clock, templateAll: options.globalTemplating, limits: options.stubLimits)
}
let proxyAll = options.proxyAll.map { ProxyAll(upstream: $0, preserveHost: options.stubLimits.preserveHostHeader) }
let app = MockApp(seed: seed, environment: environment, stubs: stubs, proxyAll: proxyAll, adminToken: options.adminToken,
                  adminHosts: [options.server.host], journalSize: options.journalSize)
// The transport itself rather than EmbeddedMockServer: the banner reports its connection limit.
let instances = app.enableInstances(configuration: options.server, limit: options.maxInstances)
let server = Server(configuration: options.server, responder: app.makeResponder(), logger: logger)
// Before the server starts: the first request already sees the restored state.
let persistence = startPersistence(app: app, server: server, options: options, seedPath: options.seedPath, logger: logger)
// A reset with a seed puts another app in place; the state file follows it.
// (A state file reset to a posted seed runs that seed: persistence.app; a bare reset goes back to --seed.)
let switcher = AppSwitcher(app: persistence.app, server: server, startSeed: seed, responder: persistence.responder(for:)) { [store = persistence.store] next in
    store?.reattach(next.persistentParts)
}
// --watch with --mappings: a saved mapping file reloads the folder's stubs.
let mappingsWatcher = options.watch ? StubFolderWatcher(store: app.stubs, logger: logger) : nil
mappingsWatcher?.start()
do {
    try server.start()
} catch {
    startFailed(["cannot listen on \(options.server.host):\(options.server.port): \(error)"], status: 69, logger: logger)
}

signalTrap.start { sig in
    if sig == SIGHUP {
        // As nginx and PostgreSQL do: a reload, never death. Only a watched seed has a file to reload.
        if persistence.watchedSeed != nil {
            logger.info("SIGHUP: reloading the seed")
            _ = persistence.reloadWatchedSeed(server: server, logger: logger)
        } else {
            logger.warning("SIGHUP ignored: it reloads the seed only under --watch (with --seed PATH)")
        }
        return
    }
    logger.info("\(SignalTrap.name(sig)): finishing requests in flight and stopping")
    server.shutdown()
}

let host = options.server.host
let deviceAddresses = host == "0.0.0.0" || host == "::" ? NetworkInterfaces.reachableAddresses(includeIPv6: host == "::") : []
let banner = Banner.text(Banner.Facts(
    host: host, port: server.port, seedName: options.seedPath ?? "bundled seed", systems: app.systems,
    deviceAddresses: deviceAddresses, adminToken: options.adminToken, adminTokenGenerated: options.adminTokenGenerated,
    statePath: persistence.store?.path, watchedPath: persistence.watchedSeed,
    stubs: options.mappingsPath.map { Banner.Stubs(count: app.stubs.mappings.count, folder: $0,
                                                   refused: app.stubs.loadRecord.current.refused.count) },
    watchedMappings: mappingsWatcher?.path,
    configuredConnections: options.server.maxConnections, connectionLimit: server.connectionLimit))
let url = Banner.listeningURL(host: host, port: server.port)
if logger.format == .json {
    // Every line JSON, so `mock-server --log-format json 2>&1 | jq` reads it all: the banner is
    // one object on standard output (its text in `msg`), and the port is in the `listening`
    // event on standard error, where a JSON-logging script (started with --port 0) reads it.
    LogOutput.writeAll(logger.formatted(.banner, banner, fields: [
        ("version", .text(MockServerVersion.current)), ("host", .text(host)), ("port", .number(server.port)), ("url", .text(url)),
        ("seed", .text(options.seedPath)), ("console", .text(url + "/__mock/")),
    ] + (options.mappingsPath.map { path in [
        ("mappings", .text(path)), ("stubs", .number(app.stubs.mappings.count)),
        ("stubsRefused", .number(app.stubs.loadRecord.current.refused.count)),
    ] } ?? [])), to: 1)
    logger.outbox(.listening, "listening on \(url)", fields: [("host", .text(host)), ("port", .number(server.port)), ("url", .text(url))])
} else {
    // One write, so scripts reading the banner from a pipe see it at once.
    LogOutput.writeAll(banner + "\n", to: 1)
}

server.waitUntilStopped()
mappingsWatcher?.stop()
instances.stopAll()
persistence.close()
logger.info("stopped")
logger.flush()
exit(0)
