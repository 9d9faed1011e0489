#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import HTTPServer
import StatePersistence

/// `--state` and `--watch` for one server: the state store and the seed watcher, started
/// together and closed together (on shutdown, so the last changes reach the file).
///
/// A good seed edit builds a new `MockApp` from the new seed and swaps the server's responder
/// to it (`Server.replaceResponder`), then points the state store at the new app's parts.
/// Rebuilding rather than reloading each system in place: every system derives lookup tables,
/// caps and answers from its seed section at construction, and keeps them immutable so the hot
/// paths read them without a lock; a rebuild reuses that one construction path for all five
/// systems (a sixth needs nothing), can never leave a system half on the old seed, and costs
/// the request path nothing (each loop keeps its own responder copy, swapped via its wake-up).
/// What must outlive a reload lives in the shared environment (clock, outbox, randomness).
package final class MockPersistence: Sendable {
    /// The state file's store; `nil` without `--state`.
    package let store: StateStore?
    private let gate: DurabilityGate?
    private let watcher: FileWatcher?
    private let current: Locked<MockApp>
    /// What the watcher's callback reaches this persistence through; `close` empties it, which
    /// ends the cycle persistence → watcher → box → persistence. (A weak reference here left its
    /// side table to LeakSanitizer at exit: ASan runs of the executable then exited 1.)
    private let watcherTarget: Locked<MockPersistence?>
    /// Held while a reload runs.
    private let reloading = Locked(0)

    private init(store: StateStore?, gate: DurabilityGate?, watcher: FileWatcher?, app: MockApp, watcherTarget: Locked<MockPersistence?>) {
        self.store = store
        self.gate = gate
        self.watcher = watcher
        current = Locked(app)
        self.watcherTarget = watcherTarget
    }

    /// The seed file `--watch` follows, if any.
    package var watchedSeed: String? { watcher?.path }

    /// The app answering requests now (another one after each good seed edit).
    package var app: MockApp { current.withLock { $0 } }

    /// Opens the state file (throws `StateFileError`: do not start) and, with `watchSeed`, starts
    /// watching that seed file: a good edit puts `server` on a new app built from it (every
    /// system reset to the new seed, logged), a bad one is logged with its place and the running
    /// state kept. `app` must be the app `server` answers with; `app` (the property) is the one
    /// answering after the start (another when the file was reset to a posted seed).
    package static func start(app: MockApp, server: Server, statePath: String?, watchSeed: String?, logger: Logger,
                             writeInterval: TimeInterval = StateStore.defaultWriteInterval,
                             pollInterval: TimeInterval = FileWatcher.defaultInterval) throws -> MockPersistence {
        var app = app
        // A file reset to a posted seed runs that seed again: every system as it was, not `--seed`'s.
        if let statePath, let stored = try ActiveSeed.stored(at: statePath) {
            app = app.rebuilt(givenSeed: stored)
            server.replaceResponder(app.makeResponder())
            logger.info("state: \(statePath) was reset to a posted seed; it runs again (a bare reset goes back to the start seed)")
        }
        let store = try statePath.map { try StateStore.open(path: $0, parts: app.persistentParts, logger: logger, writeInterval: writeInterval,
                                                            health: app.environment.health) }
        let gate = store.map { DurabilityGate(store: $0) }
        if let store { app.environment.changeGroup.connect(store.commitOrder) }
        // Every changing request is answered once its change is in the file.
        if let gate { server.replaceResponder(app.makeResponder(durability: gate)) }
        let box = Locked<MockPersistence?>(nil)
        let watcher = watchSeed.map { path in
            FileWatcher(path: path, interval: pollInterval) {
                box.withLock { $0 }?.seedChanged(path: path, server: server, logger: logger)
            }
        }
        let persistence = MockPersistence(store: store, gate: gate, watcher: watcher, app: app, watcherTarget: box)
        if watcher != nil { box.withLock { $0 = persistence } }
        watcher?.start()
        if let watchSeed { logger.info("watching \(watchSeed): a saved edit reloads the seed") }
        return persistence
    }

    private func seedChanged(path: String, server: Server, logger: Logger) {
        // The watcher's thread and a SIGHUP may both reload: one at a time.
        reloading.withLock { _ in reload(path: path, server: server, logger: logger) }
    }

    private func reload(path: String, server: Server, logger: Logger) {
        let seed: Seed
        do {
            seed = try Seed.load(path: path)
        } catch {
            logger.warning("seed not reloaded, the running state is kept: \((error as? SeedError)?.withHintInline ?? "\(error)")")
            return
        }
        let next = current.withLock { $0 }.rebuilt(seed: seed)
        // The store first: from here the new app's changes are followed (the old app's requests
        // still in flight are dropped with the state they belong to, as a reset would drop them).
        let swapped = DispatchSemaphore(value: 0)
        // One group: the new parts and the emptied outbox reach the state file together.
        next.environment.changeGroup.run {
            store?.reattach(next.persistentParts)
            server.replaceResponder(next.makeResponder(durability: gate)) { swapped.signal() }
            next.environment.outbox.reset()
        }
        swapped.wait()
        current.withLock { $0 = next }
        logger.info("seed reloaded from \(path): every system reset to it")
    }

    /// Reloads the watched seed now, as a saved edit would (SIGHUP under `--watch`); false, doing
    /// nothing, when no seed is watched.
    package func reloadWatchedSeed(server: Server, logger: Logger) -> Bool {
        guard let path = watcher?.path else { return false }
        seedChanged(path: path, server: server, logger: logger)
        return true
    }

    /// What `app` answers with here: under `--state`, behind the durability gate.
    package func responder(for app: MockApp) -> Responder { app.makeResponder(durability: gate) }

    /// Stops watching and writes the last changes.
    package func close() {
        watcher?.stop()
        watcherTarget.withLock { $0 = nil }
        if store != nil { app.environment.changeGroup.connect(nil) }
        store?.close()
    }
}
