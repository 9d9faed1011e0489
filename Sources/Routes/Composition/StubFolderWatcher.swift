#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Stubs
import StatePersistence

/// `--watch` with `--mappings DIR`: follows the mapping files (names, sizes, modification times)
/// and reloads the folder's stubs after a change. Woken by inotify on Linux (`DIR` and every
/// folder under it: `mappings` at every depth, `__files`, a `mappings` folder replaced), so an
/// idle watcher costs nothing however many files there are; polled every `interval` where there
/// is no notification (Darwin). A refused mapping is logged with its file and place, and its file
/// keeps the stubs it held; a folder that is gone keeps them all. (A change in `__files` reloads
/// nothing: bodies are read when served.)
package final class StubFolderWatcher: Sendable {
    private let files: StubFiles
    private let poller: PollingWatcher<[String]>

    /// Nil when the store has no folder.
    package init?(store: StubStore, logger: Logger, interval: TimeInterval = FileWatcher.defaultInterval) {
        guard let files = store.files else { return nil }
        self.files = files
        poller = PollingWatcher(name: "mock-server mappings watcher", interval: interval,
                                fingerprint: { StubFolderWatcher.fingerprint(files) },
                                events: DirectoryEvents(directories: [files.root], recursive: true, fallbackInterval: interval)) {
            do {
                // Each refused mapping (its file keeps what it held) and each warning, on every reload.
                for line in try store.reloadFolder().lines(reload: true) { logger.warning(line) }
            } catch {
                logger.warning("mappings not reloaded, the stubs stay as they were: \(error)")
            }
        }
    }

    package var path: String { files.mappingsFolder }

    /// How changes are seen: `inotify`, or `polling` every interval.
    package var mechanism: String { poller.mechanism }

    package func start() { poller.start() }

    package func stop() { poller.stop() }

    private static func fingerprint(_ files: StubFiles) -> [String] {
        let paths = (try? files.files()) ?? []
        return paths.map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(path) \(modified) \(attributes?[.size].map { "\($0)" } ?? "-")"
        }
    }
}
