#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Routes
import StatePersistence

/// `--state` and `--watch`: opens the state file (an unusable one stops the start, exit 65) and
/// watches the seed file (a good edit moves `server` to an app built from it). Kept apart from
/// `main` so it moves with the app's construction.
func startPersistence(app: MockApp, server: Server, options: Options, seedPath: String?, logger: Logger) -> MockPersistence {
    var watched: String?
    if options.watch {
        if let seedPath, FileManager.default.fileExists(atPath: seedPath) {
            watched = seedPath
        } else {
            logger.warning("--watch: the seed in use has no file on disk to watch (\(seedPath ?? "bundled seed")); name one with --seed PATH")
        }
    }
    do {
        return try MockPersistence.start(app: app, server: server, statePath: options.statePath, watchSeed: watched, logger: logger)
    } catch let inUse as StateFileInUse {
        // EX_UNAVAILABLE, as for a busy port: the file is fine, someone else has it.
        exitWith("mock-server: \(inUse)", status: 69)
    } catch let cannot as StateFileCannotCreate {
        // EX_CANTCREAT (sysexits): an output file cannot be created; nothing is wrong with the data.
        exitWith("mock-server: \(cannot)", status: 73)
    } catch {
        exitWith("mock-server: \(error)\n(the server did not start so as not to lose that state; fix or move the file, or start without --state)", status: 65)
    }
}
