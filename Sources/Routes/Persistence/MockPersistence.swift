import Foundation
import HTTPServer

/// `--state` and `--watch` for one app: the state store and the seed watcher, started together
/// and closed together (on shutdown, so the last changes reach the file).
public final class MockPersistence: Sendable {
    /// The state file's store; `nil` without `--state`.
    public let store: StateStore?
    private let watcher: FileWatcher?

    private init(store: StateStore?, watcher: FileWatcher?) {
        self.store = store
        self.watcher = watcher
    }

    /// Opens the state file (throws `StateFileError`: do not start) and, with `watchSeed`, starts
    /// watching that seed file: a good edit resets every system to it, a bad one is logged with
    /// its place and the running state kept.
    public static func start(app: MockApp, statePath: String?, watchSeed: String?, logger: Logger,
                             writeInterval: TimeInterval = StateStore.defaultWriteInterval,
                             pollInterval: TimeInterval = FileWatcher.defaultInterval) throws -> MockPersistence {
        let store = try statePath.map { try StateStore.open(path: $0, parts: app.persistentParts, logger: logger, writeInterval: writeInterval) }
        let watcher = watchSeed.map { path in
            FileWatcher(path: path, interval: pollInterval) { [weak app] in
                guard let app else { return }
                MockPersistence.seedChanged(path: path, app: app, logger: logger)
            }
        }
        watcher?.start()
        if let watchSeed { logger.info("watching \(watchSeed): a saved edit reloads the seed") }
        return MockPersistence(store: store, watcher: watcher)
    }

    static func seedChanged(path: String, app: MockApp, logger: Logger) {
        let seed: Seed
        do {
            seed = try Seed.load(path: path)
        } catch {
            logger.warning("seed not reloaded, the running state is kept: \(error)")
            return
        }
        let kept = app.reload(seed: seed)
        var line = "seed reloaded from \(path): every system reset to it"
        if !kept.isEmpty { line += " (\(kept.joined(separator: ", ")) still on the seed they started with)" }
        logger.info(line)
    }

    /// Stops watching and writes the last changes.
    public func close() {
        watcher?.stop()
        store?.close()
    }
}
