#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Polls a fingerprint on a background thread and calls `changed` after each settled difference.
/// Polling (not inotify/kqueue) works the same everywhere, including editors that save by renaming
/// a new file over the old one.
package final class PollingWatcher<Fingerprint: Equatable & Sendable>: @unchecked Sendable {
    private let name: String
    private let interval: TimeInterval
    private let fingerprint: @Sendable () -> Fingerprint
    private let isSettled: @Sendable (Fingerprint) -> Bool
    private let changed: @Sendable () -> Void
    // Guarded by `condition`.
    private let condition = Condition()
    private var stopped = false

    /// `isSettled` tells a fingerprint worth acting on from one caught mid-save.
    package init(name: String, interval: TimeInterval, fingerprint: @escaping @Sendable () -> Fingerprint,
                 isSettled: @escaping @Sendable (Fingerprint) -> Bool = { _ in true },
                 changed: @escaping @Sendable () -> Void) {
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
    }

    private func run(from baseline: Fingerprint) {
        var last = baseline
        while true {
            condition.lock()
            if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
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
