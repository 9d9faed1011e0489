#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// `POST /__mock/reset` with `{"seed": …}` (docs/control-plane.md, "Arrange, isolate, verify"): the server answers from a new app
/// built on that seed, swapped in as `--watch` swaps one (`Server.replaceResponder`: every
/// loop takes it between requests, so no connection sees half of either world); a bare reset
/// of such an app goes back to the start seed the same way. The reset's answer is held until
/// every loop answers from the new app, so the test's next request, on any connection, sees it.
package final class AppSwitcher: Sendable {
    private let server: Server
    private let current: Locked<MockApp>
    private let startSeed: Seed
    /// Told of every new app before it answers (the state file follows it).
    private let switched: @Sendable (MockApp) -> Void
    /// The responder a new app answers with (under `--state`, behind the durability gate).
    private let responder: @Sendable (MockApp) -> Responder

    /// `app` must be the app `server` answers with, from `responder(app)`.
    /// `startSeed`: where a bare reset goes back to, when `app` runs a posted seed already (a
    /// state file reset to one); nil: `app`'s seed.
    package init(app: MockApp, server: Server, startSeed: Seed? = nil, responder: @escaping @Sendable (MockApp) -> Responder = { $0.makeResponder() },
                switched: @escaping @Sendable (MockApp) -> Void = { _ in }) {
        self.server = server
        self.responder = responder
        current = Locked(app)
        self.startSeed = startSeed ?? app.seed
        self.switched = switched
        install(on: app)
    }

    /// The app answering now.
    package var app: MockApp { current.withLock { $0 } }

    private func install(on app: MockApp) {
        app.switcher.set({ [weak self] seed, done in self?.switchTo(seed, done: done) },
                         restore: { [weak self] document, done in try self?.restore(document, done: done) })
    }

    /// `PUT /__mock/state`: an app restored from `document` off to the side takes the current
    /// one's place (journal, faults and events kept); `done` runs once every loop answers from it.
    /// A document that does not load throws, and nothing changed.
    private func restore(_ document: [UInt8], done: @escaping @Sendable () -> Void) throws {
        let app = current.withLock { $0 }
        // One group: the restored outbox (shared) and the swapped-in systems reach the file together.
        let next = try app.environment.changeGroup.run { () -> Result<MockApp, any Error> in
            do {
                let next = try app.restoredCopy(from: document)
                put(next, done: done)
                return .success(next)
            } catch {
                return .failure(error)
            }
        }.get()
        next.environment.logger.info("state replaced by the document put to /__mock/state")
    }

    private func put(_ next: MockApp, done: @escaping @Sendable () -> Void) {
        install(on: next)
        switched(next)
        current.withLock { $0 = next }
        server.replaceResponder(responder(next), applied: done)
    }

    /// Answers from a new app on `seed` (nil: the start seed); `done` runs once every loop does.
    private func switchTo(_ seed: Seed?, done: @escaping @Sendable () -> Void) {
        let next = current.withLock { $0 }.rebuilt(seed: seed ?? startSeed, givenSeed: seed != nil)
        // One group: the emptied outbox and the new app's systems reach the state file together.
        next.environment.changeGroup.run {
            next.environment.outbox.reset()
            // Real time again, and a `reset` event on the stream its subscribers still follow.
            next.control.reset()
            put(next, done: done)
        }
        next.environment.logger.info(seed == nil ? "state reset to the start seed" : "state reset to the seed posted to /__mock/reset")
    }
}

/// Where an app finds the switcher that can put another app in its place (nil: none; a reset
/// with a seed is then refused).
final class SwitcherSlot: Sendable {
    typealias Switch = @Sendable (_ seed: Seed?, _ done: @escaping @Sendable () -> Void) -> Void
    typealias Restore = @Sendable (_ document: [UInt8], _ done: @escaping @Sendable () -> Void) throws -> Void
    /// Boxed: closures kept in `Locked` itself gain two thunks per access (`Boxed`).
    private let value = Locked<Boxed<(switcher: Switch, restore: Restore)>?>(nil)
    func set(_ switcher: @escaping Switch, restore: @escaping Restore) { value.withLock { $0 = Boxed((switcher, restore)) } }
    var switcher: Switch? { value.withLock { $0?.value.switcher } }
    /// Puts an app restored from a state document in this one's place (nil: none; the state is
    /// then restored in place, one part after another).
    var restore: Restore? { value.withLock { $0?.value.restore } }
}
