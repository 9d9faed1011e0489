#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

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
    private let condition = Condition()
    private var stopped = false

    public init(path: String, interval: TimeInterval = FileWatcher.defaultInterval, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.interval = interval
        self.changed = changed
    }

    /// Takes the current fingerprint as the baseline and starts polling.
    public func start() {
        let baseline = fingerprint()
        DetachedThread.start(name: "mock-server seed watcher") { [self] in run(from: baseline) }
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
                           size: number(attributes[.size]), inode: number(attributes[.systemFileNumber]))
    }

    /// A size or inode: an NSNumber from full Foundation, a plain integer from FoundationEssentials.
    private func number(_ value: Any?) -> UInt64? {
        if let n = value as? UInt64 { return n }
        if let n = value as? any BinaryInteger { return UInt64(truncatingIfNeeded: n) }
        return nil
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
