#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// `POST /__mock/reset` with `{"seed": …}` (API.md §6.3): the server answers from a new app
/// built on that seed, swapped in as `--watch` swaps one (`Server.replaceResponder`: every
/// loop takes it between requests, so no connection sees half of either world); a bare reset
/// of such an app goes back to the start seed the same way. The reset's answer is held until
/// every loop answers from the new app, so the test's next request, on any connection, sees it.
public final class AppSwitcher: Sendable {
    private let server: Server
    private let current: Locked<MockApp>
    private let startSeed: Seed
    /// Told of every new app before it answers (the state file follows it).
    private let switched: @Sendable (MockApp) -> Void

    /// `app` must be the app `server` answers with.
    public init(app: MockApp, server: Server, switched: @escaping @Sendable (MockApp) -> Void = { _ in }) {
        self.server = server
        current = Locked(app)
        startSeed = app.seed
        self.switched = switched
        install(on: app)
    }

    /// The app answering now.
    public var app: MockApp { current.withLock { $0 } }

    private func install(on app: MockApp) {
        app.switcher.set { [weak self] seed, done in self?.switchTo(seed, done: done) }
    }

    /// Answers from a new app on `seed` (nil: the start seed); `done` runs once every loop does.
    private func switchTo(_ seed: Seed?, done: @escaping @Sendable () -> Void) {
        let next = current.withLock { $0 }.rebuilt(seed: seed ?? startSeed, givenSeed: seed != nil)
        install(on: next)
        switched(next)
        next.environment.outbox.reset()
        current.withLock { $0 = next }
        server.replaceResponder(next.makeResponder(), applied: done)
        next.environment.logger.info(seed == nil ? "state reset to the start seed" : "state reset to the seed posted to /__mock/reset")
    }
}

/// Where an app finds the switcher that can put another app in its place (nil: none; a reset
/// with a seed is then refused).
final class SwitcherSlot: Sendable {
    typealias Switch = @Sendable (_ seed: Seed?, _ done: @escaping @Sendable () -> Void) -> Void
    private let value = Locked<Switch?>(nil)
    func set(_ switcher: @escaping Switch) { value.withLock { $0 = switcher } }
    var switcher: Switch? { value.withLock { $0 } }
}
