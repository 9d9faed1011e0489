#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Stubs
import StatePersistence

/// `--watch` with `--mappings DIR`: polls the mapping files (names, sizes, modification times) and
/// reloads the folder's stubs after a change. A folder that no longer loads is logged with its
/// file and place, and the stubs stay as they were.
public final class StubFolderWatcher: @unchecked Sendable {
    private let store: StubStore
    private let files: StubFiles
    private let logger: Logger
    private let interval: TimeInterval
    // Guarded by `condition`.
    private let condition = Condition()
    private var stopped = false

    /// Nil when the store has no folder.
    public init?(store: StubStore, logger: Logger, interval: TimeInterval = FileWatcher.defaultInterval) {
        guard let files = store.files else { return nil }
        self.store = store
        self.files = files
        self.logger = logger
        self.interval = interval
    }

    public var path: String { files.mappingsFolder }

    public func start() {
        let baseline = fingerprint()
        DetachedThread.start(name: "mock-server mappings watcher") { [self] in run(from: baseline) }
    }

    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func fingerprint() -> [String] {
        let paths = (try? files.files()) ?? []
        return paths.map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(path) \(modified) \(attributes?[.size].map { "\($0)" } ?? "-")"
        }
    }

    private func run(from baseline: [String]) {
        var last = baseline
        while true {
            condition.lock()
            if !stopped { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
            let done = stopped
            condition.unlock()
            if done { return }
            let current = fingerprint()
            guard current != last else { continue }
            last = current
            do {
                try store.reloadFiles(try files.load())
            } catch {
                logger.warning("mappings not reloaded, the stubs stay as they were: \(error)")
            }
        }
    }
}
