#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Compares a fingerprint on a background thread and calls `changed` after each settled
/// difference. With `events` (inotify on Linux, FSEvents in the executable on macOS) it compares
/// only when woken by one, so an idle watcher costs nothing; without (an app embedding the server
/// on Darwin, or the system refused), it polls every `interval`.
/// Either way the fingerprint decides, so editors that save by renaming a new file over the old
/// one look the same as an edit in place.
package final class PollingWatcher<Fingerprint: Equatable & Sendable>: @unchecked Sendable {
    private let name: String
    private let interval: TimeInterval
    private let fingerprint: @Sendable () -> Fingerprint
    private let isSettled: @Sendable (Fingerprint) -> Bool
    private let changed: @Sendable () -> Void
    private let events: DirectoryEvents?
    // Guarded by `condition`.
    private let condition = Condition()
    private var stopped = false

    /// `isSettled` tells a fingerprint worth acting on from one caught mid-save; `events`, when
    /// given, wakes the comparison instead of the `interval`.
    package init(name: String, interval: TimeInterval, fingerprint: @escaping @Sendable () -> Fingerprint,
                 isSettled: @escaping @Sendable (Fingerprint) -> Bool = { _ in true },
                 events: DirectoryEvents? = nil,
                 changed: @escaping @Sendable () -> Void) {
        self.events = events
        self.name = name
        self.interval = interval
        self.fingerprint = fingerprint
        self.isSettled = isSettled
        self.changed = changed
    }

    /// Takes the current fingerprint as the baseline and starts polling.
    package func start() {
        let baseline = fingerprint()
        DetachedThread.start(name: name) { [self] in run(from: baseline) }
    }

    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        events?.close()
    }

    /// How changes are seen: `inotify` (`FSEvents` in the executable on macOS), or `polling` every interval.
    package var mechanism: String { events?.mechanism ?? "polling" }

    private func run(from baseline: Fingerprint) {
        var last = baseline
        // Dropped if waiting on it fails: polling from then on.
        var events = self.events
        while true {
            if let waiting = events {
                if !waiting.wait() { events = nil }
            } else {
                condition.lock()
                if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
                condition.unlock()
            }
            condition.lock()
            let done = stopped
            condition.unlock()
            if done { return }
            let current = fingerprint()
            if current != last && isSettled(current) {
                last = current
                changed()
            }
        }
    }
}
