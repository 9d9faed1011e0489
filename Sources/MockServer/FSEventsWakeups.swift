#if os(macOS)
import CoreServices
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import StatePersistence

/// `--watch` on macOS: one FSEvents stream over the watched folders (file-level events, every
/// depth), so an idle watcher costs nothing and no descriptor is opened per file or folder (a
/// Terminal's soft limit is 256). Only the executable links CoreServices; an app embedding the
/// server polls (docs/darwin-differences.md).
///
/// An event only wakes the watcher, which compares its fingerprint as a poll would, so a
/// coalesced, dropped or extra event costs at most one comparison, never a wrong reload.
final class FSEventsWakeups: DirectoryWakeups, @unchecked Sendable {
    let name = "FSEvents"
    private var stream: FSEventStreamRef?
    private let queue = DispatchQueue(label: "mock-server FSEvents")
    // Guarded by `condition`.
    private let condition = Condition()
    private var pending = false
    private var closed = false

    /// Installs the maker `DirectoryEvents` asks for on this system; called once, at start.
    static func install() {
        DirectoryEvents.platformWakeups.withLock { make in
            make = Boxed { directories, _ in FSEventsWakeups(directories: directories) }
        }
    }

    /// Nil when the stream cannot be made or started (the watcher polls then).
    init?(directories: [String]) {
        var context = FSEventStreamContext(version: 0, info: nil, retain: nil, release: nil, copyDescription: nil)
        // Unretained: `close` stops the stream (no callback after FSEventStreamStop returns)
        // before this object can go.
        context.info = Unmanaged.passUnretained(self).toOpaque()
        let callback: FSEventStreamCallback = { _, info, _, _, _, _ in
            guard let info else { return }
            Unmanaged<FSEventsWakeups>.fromOpaque(info).takeUnretainedValue().wake()
        }
        // Each folder watched from itself down; file events report an edit in place too.
        let flags = FSEventStreamCreateFlags(kFSEventStreamCreateFlagFileEvents | kFSEventStreamCreateFlagNoDefer
                                             | kFSEventStreamCreateFlagWatchRoot)
        guard let made = FSEventStreamCreate(nil, callback, &context, NSArray(array: directories) as CFArray,
                                             FSEventStreamEventId(kFSEventStreamEventIdSinceNow), 0.05, flags) else { return nil }
        FSEventStreamSetDispatchQueue(made, queue)
        guard FSEventStreamStart(made) else {
            FSEventStreamInvalidate(made)
            FSEventStreamRelease(made)
            return nil
        }
        stream = made
    }

    deinit { close() }

    private func wake() {
        condition.lock()
        pending = true
        condition.signal()
        condition.unlock()
    }

    func wait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !pending && !closed { condition.wait() }
        pending = false
        return !closed
    }

    func close() {
        condition.lock()
        let first = !closed
        closed = true
        condition.broadcast()
        condition.unlock()
        guard first, let stream else { return }
        FSEventStreamStop(stream)
        FSEventStreamInvalidate(stream)
        FSEventStreamRelease(stream)
    }
}
#endif
