import HTTPServer

/// Runs a change of several parts (a reset, an app swapped in) as one group: while the state
/// store follows the app, no write of the state file looks at the parts during the group, so
/// the file holds all of such a change or none of it (never some systems reset and others not).
///
/// Shared by every copy of an environment (an app rebuilt on another seed runs its groups
/// through the same one). Unconnected (no `--state`) a group is the body alone.
package final class ChangeGroup: Sendable {
    /// The store's order lock: held by a group, and by the writer while it collects a write.
    private let order = Locked<Locked<Void>?>(nil)

    package init() {}

    /// Runs `body` with no write of the state file collecting changes meanwhile.
    package func run<R>(_ body: () -> R) -> R {
        guard let lock = order.withLock({ $0 }) else { return body() }
        return lock.withLock { _ in body() }
    }

    /// Connects the store's lock (nil disconnects).
    package func connect(_ lock: Locked<Void>?) { order.withLock { $0 = lock } }
}
