#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Follows one file's modification time, size and inode on a background thread and calls
/// `changed` after each difference (a `PollingWatcher` of the file's attributes), woken by any
/// change in the file's directory (inotify on Linux: a save by rename replaces the file, so its
/// directory is what is watched), else polling.
package final class FileWatcher: Sendable {
    private struct Fingerprint: Equatable, Sendable {
        var modified: Date?
        var size: UInt64?
        var inode: UInt64?
    }

    /// The default poll period for `--watch`.
    package static let defaultInterval: TimeInterval = 0.3

    package let path: String
    private let poller: PollingWatcher<Fingerprint>

    package init(path: String, interval: TimeInterval = FileWatcher.defaultInterval, changed: @escaping @Sendable () -> Void) {
        self.path = path
        // A file that vanished (an editor between unlink and rename) is not a change yet.
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        poller = PollingWatcher(name: "mock-server seed watcher", interval: interval,
                                fingerprint: { FileWatcher.fingerprint(path) }, isSettled: { $0.size != nil },
                                events: DirectoryEvents(directories: [directory], recursive: false, fallbackInterval: interval),
                                changed: changed)
    }

    /// How changes are seen: `inotify`, or `polling` every interval.
    package var mechanism: String { poller.mechanism }

    /// Takes the current fingerprint as the baseline and starts polling.
    package func start() { poller.start() }

    package func stop() { poller.stop() }

    private static func fingerprint(_ path: String) -> Fingerprint {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return Fingerprint() }
        return Fingerprint(modified: attributes[.modificationDate] as? Date,
                           size: number(attributes[.size]), inode: number(attributes[.systemFileNumber]))
    }

    /// A size or inode: an NSNumber from full Foundation, a plain integer from FoundationEssentials.
    private static func number(_ value: Any?) -> UInt64? {
        if let n = value as? UInt64 { return n }
        if let n = value as? any BinaryInteger { return UInt64(truncatingIfNeeded: n) }
        return nil
    }
}
