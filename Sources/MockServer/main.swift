import Foundation
import HTTPServer
import Routes
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

// First, before any thread exists: SIGINT/SIGTERM stay pending until the trap's thread takes them.
let signalTrap = SignalTrap.block()

/// Prints to standard error and exits with the given status.
func exitWith(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let options: Options
do {
    options = try Options.parse(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch is Options.HelpRequested {
    print(Options.usage)
    exit(0)
} catch {
    exitWith("mock-server: \(error)", status: 64)
}

let logger = Logger(level: options.logLevel)
let seedPath = SeedLocator.resolve(options.seedPath, explicitlyGiven: options.seedPathGiven)
let seed: Seed
do {
    seed = try Seed.load(path: seedPath)
} catch {
    let hint = FileManager.default.fileExists(atPath: seedPath) ? "" : "\n(run from the repository, or name the file with --seed PATH or MOCK_SEED)"
    exitWith("mock-server: \(error)\(hint)", status: 65)
}

let app = MockApp(seed: seed, environment: MockEnvironment(logger: logger), adminToken: options.adminToken,
                  adminHosts: [options.server.host])
let server = Server(configuration: options.server, responder: Responder(router: app.makeRouter()), logger: logger)
// Before the server starts: the first request already sees the restored state.
let persistence = startPersistence(app: app, server: server, options: options, seedPath: seedPath, logger: logger)
do {
    try server.start()
} catch {
    exitWith("mock-server: cannot listen on \(options.server.host):\(options.server.port): \(error)", status: 69)
}

signalTrap.start { sig in
    logger.info("\(SignalTrap.name(sig)): finishing requests in flight and stopping")
    server.shutdown()
}

let hostForURL = options.server.host.contains(":") ? "[\(options.server.host)]" : options.server.host
// One write, so scripts reading the banner from a pipe see it at once.
FileHandle.standardOutput.write(Data((Banner.text(baseURL: "http://\(hostForURL):\(server.port)", seedPath: seedPath, seed: seed,
                                                         statePath: persistence.store?.path, watchedSeed: persistence.watchedSeed) + "\n").utf8))

server.waitUntilStopped()
persistence.close()
logger.info("stopped")
exit(0)
