import Foundation
import HTTPServer
import Routes

/// `--state` and `--watch`: opens the state file (an unusable one stops the start, exit 65) and
/// watches the seed file. Kept apart from `main` so it moves with the app's construction.
/// Returns the persistence and the seed file actually watched (for the banner).
func startPersistence(app: MockApp, options: Options, seedPath: String?, logger: Logger) -> (MockPersistence, watched: String?) {
    var watched: String?
    if options.watch {
        if let seedPath, FileManager.default.fileExists(atPath: seedPath) {
            watched = seedPath
        } else {
            logger.warning("--watch: the seed in use has no file on disk to watch (\(seedPath ?? "bundled seed")); name one with --seed PATH")
        }
    }
    do {
        return (try MockPersistence.start(app: app, statePath: options.statePath, watchSeed: watched, logger: logger), watched)
    } catch {
        exitWith("mock-server: \(error)\n(the server did not start so as not to lose that state; fix or move the file, or start without --state)", status: 65)
    }
}
