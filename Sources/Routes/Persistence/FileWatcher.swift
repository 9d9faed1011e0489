import Foundation

/// Polls one file's modification time, size and inode on a background thread and calls
/// `changed` after each difference. Polling (not inotify/kqueue) works the same everywhere,
/// including editors that save by renaming a new file over the old one.
public final class FileWatcher: @unchecked Sendable {
    private struct Fingerprint: Equatable {
        var modified: Date?
        var size: UInt64?
        var inode: UInt64?
    }

    /// The default poll period for `--watch`.
    public static let defaultInterval: TimeInterval = 0.3

    public let path: String
    private let interval: TimeInterval
    private let changed: @Sendable () -> Void
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var stopped = false

    public init(path: String, interval: TimeInterval = FileWatcher.defaultInterval, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.interval = interval
        self.changed = changed
    }

    /// Takes the current fingerprint as the baseline and starts polling.
    public func start() {
        let baseline = fingerprint()
        let thread = Thread { [self] in run(from: baseline) }
        thread.name = "mock-server seed watcher"
        thread.start()
    }

    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func fingerprint() -> Fingerprint {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return Fingerprint() }
        return Fingerprint(modified: attributes[.modificationDate] as? Date,
                           size: (attributes[.size] as? NSNumber)?.uint64Value,
                           inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
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
            // A file that vanished (an editor between unlink and rename) is not a change yet.
            if current != last && current.size != nil {
                last = current
                changed()
            }
        }
    }
}
