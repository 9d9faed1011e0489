#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import HTTPServer
import EmulationKit

/// The `--state` file: loads it (or creates it from the seed) at start, then keeps it following
/// every change of the parts it was given, written by a `StateWriter` so nothing is half-written.
package final class StateStore: Sendable {
    /// Writes start at most this often. 0: a change is written as soon as it is noted, and the
    /// changes noted while a write runs share the next one (group commit), since a changing
    /// request is answered only once its change is written (`DurabilityGate`).
    package static let defaultWriteInterval: TimeInterval = 0

    /// The file, as it was named (messages say this; the files are reached through its real path).
    package let path: String
    /// The parts followed; replaced when `--watch` rebuilds the app from a new seed.
    private let entries: Locked<[PersistentEntry]>
    private let logger: Logger
    /// The base file and its change log (the writer thread's, and open's and close's).
    package let logged: LoggedState
    /// `--watch` swapped the parts: the next write starts a new base.
    private let rebaseNeeded = Locked(false)
    private let dirty = Locked<Set<String>>([])
    private let failureText = Locked<String?>(nil)
    /// Since when writes fail (monotonic nanoseconds) and when that was last logged; nil: they do not.
    private let failing = Locked<(since: UInt64, logged: UInt64)?>(nil)
    /// Where a failing write is reported besides the log (`/__mock/health`).
    private let health: HealthStatus?
    private let completedWrites = Locked(0)
    private let writer: Locked<StateWriter?> = Locked(nil)
    /// Held from open to close: one server per state file.
    private let lock: FileLock
    /// Held by a multi-part change (`ChangeGroup`) and by a write while it collects the changes,
    /// so a write takes all of such a change or none of it.
    package let commitOrder = Locked(())

    private init(path: String, realPath: String, entries: [PersistentEntry], logger: Logger, lock: FileLock, health: HealthStatus?) {
        self.path = path
        self.health = health
        self.entries = Locked(entries)
        self.logger = logger
        self.lock = lock
        logged = LoggedState(path: realPath, shownAs: path, logger: logger)
    }

    /// Opens `path` for `parts`: restores them from it, or, when there is no file, keeps their
    /// (seed) state and creates it. Any other problem throws a `StateFileError` naming the file,
    /// and nothing is restored: the caller must not start.
    package static func open(path: String, parts: [any PersistentSystem], logger: Logger,
                            writeInterval: TimeInterval = defaultWriteInterval, health: HealthStatus? = nil) throws -> StateStore {
        // Locked and written through its real path: two names of one file are one state.
        let realPath = ResolvedPath.of(path)
        let entries = parts.map { PersistentEntry($0) }
        var seen = Set<String>()
        for entry in entries where !seen.insert(entry.key).inserted {
            throw StateFileError(path, "two parts share the key \"\(entry.key)\"")
        }
        // First: a second server must not touch the file, nor the first one's temporary files.
        let lock: FileLock
        do { lock = try FileLock.acquire(for: realPath) } catch let held as FileLock.Held {
            throw StateFileInUse(path: path, held: held)
        } catch let cannot as FileLock.CannotCreate {
            throw StateFileCannotCreate(path: path, cannot)
        } catch {
            throw StateFileError(path, "\(error)")
        }
        let store = StateStore(path: path, realPath: realPath, entries: entries, logger: logger, lock: lock, health: health)
        do {
            AtomicFile.removeLeftovers(of: realPath)
            if let data = try read(realPath) {
                let loaded = try StateFile.decode(data, path: path, entries: entries)
                for restore in loaded.restores {
                    do { try restore.run() } catch {
                        throw StateFileError(path, "at systems.\(restore.key): \(error)")
                    }
                }
                let restored = loaded.restores.map(\.key)
                logger.info("state loaded from \(path)\(loaded.savedAt.map { " (saved \($0))" } ?? ""): \(restored.isEmpty ? "nothing" : restored.joined(separator: ", ")); the rest from the seed")
                for key in loaded.unknownKeys {
                    logger.warning("\(path): this mock-server keeps no \"\(key)\": that part of the file is dropped at the next write")
                }
                try store.logged.replay(entries, base: (loaded.generation, loaded.epoch))
            } else {
                try store.logged.replay(entries, base: nil)   // sets aside logs a removed file left
                logger.info("state file \(path) created from the seed")
            }
            // A new generation: the base holds everything loaded, the log starts empty.
            do { try store.logged.rebase(entries) } catch let error as StateFileError { throw error } catch {
                throw StateFileError(path, "cannot write the state file (\(error))")
            }
        } catch {
            lock.release()   // a refused start leaves the file to the next try
            throw error
        }
        store.completedWrites.withLock { $0 = 0 }
        let writer = StateWriter(interval: writeInterval) { [weak store] in store?.writeChanges() ?? true }
        store.writer.withLock { $0 = writer }
        writer.start()
        for entry in entries { store.follow(entry) }
        return store
    }

    private func follow(_ entry: PersistentEntry) {
        let key = entry.key
        entry.changes.connect { [weak self] in self?.changed(key) }
    }

    /// Follows `parts` instead (the same keys, from an app rebuilt on a new seed) and writes
    /// them soon: the file holds the new parts' state from the next write on.
    package func reattach(_ parts: [any PersistentSystem]) {
        guard writer.withLock({ $0 }) != nil else { return }   // closed
        let new = parts.map { PersistentEntry($0) }
        let old = entries.withLock { e in
            defer { e = new }
            return e
        }
        for entry in old { entry.changes.connect(nil) }
        for entry in new { follow(entry) }
        rebaseNeeded.withLock { $0 = true }
        // The swap is a change like any other: the request that made it is answered once it is written.
        if let seq = writer.withLock({ $0 })?.poke() { ThreadMark.raise(to: seq) }
    }

    /// The file's bytes, `nil` when it does not exist.
    private static func read(_ path: String) throws -> Data? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if info.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) { throw StateFileError(path, "is a directory, not a state file") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StateFileError(path, "cannot read the state file (\(FileErrorText.of(error)))")
        }
    }

    /// A part changed (on the thread that changed it): the change's number marks the thread, so
    /// the request being answered there waits for it (`DurabilityGate`).
    private func changed(_ key: String) {
        dirty.withLock { _ = $0.insert(key) }
        if let seq = writer.withLock({ $0 })?.poke() { ThreadMark.raise(to: seq) }
    }

    /// Calls `done(true)` once change `seq` (a `ThreadMark`) is in the file, `done(false)` if the
    /// write that should carry it fails; at once (true) when the store is closed.
    func whenDurable(_ seq: UInt64, _ done: @escaping @Sendable (Bool) -> Void) {
        guard let writer = writer.withLock({ $0 }) else { return done(true) }
        writer.whenWritten(seq, done)
    }

    /// Why writes fail now; nil while they succeed.
    package var failure: String? { failureText.withLock { $0 } }

    /// One write on the writer thread: the changed parts' records appended to the log and flushed.
    private func writeChanges() -> Bool {
        let started = DispatchTime.now().uptimeNanoseconds
        var keys = Set<String>(), rebasing = false
        do {
            // Collected under the order lock (a group's parts all or none), written after it.
            try commitOrder.withLock { _ in
                keys = dirty.withLock { d -> Set<String> in
                    let keys = d
                    d = []
                    return keys
                }
                let entries = self.entries.withLock { $0 }
                rebasing = rebaseNeeded.withLock { r in defer { r = false }; return r }
                if rebasing { try logged.prepareRebase(entries) } else { try logged.prepare(entries, dirty: keys) }
            }
            try logged.writePrepared()
        } catch {
            // The records stay queued in the log writer (or the parts stay dirty) for the retry.
            dirty.withLock { $0.formUnion(keys) }
            if rebasing { rebaseNeeded.withLock { $0 = true } }
            noteFailure("\(error)")
            return false
        }
        if failing.withLock({ f in defer { f = nil }; return f != nil }) {
            failureText.withLock { $0 = nil }
            health?.set("state", nil)
            logger.info("state: \(path) written again; changes are answered again")
        }
        completedWrites.withLock { $0 += 1 }
        if logger.isEnabled(.debug) {
            logger.debug("state: \(keys.sorted().joined(separator: ", ")) logged in \((DispatchTime.now().uptimeNanoseconds - started) / 1_000) µs")
        }
        return true
    }

    /// A write failed: refused answers, `/__mock/health` degraded, one log line a minute at most.
    private func noteFailure(_ reason: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        let log = failing.withLock { f -> Bool in
            guard let current = f else { f = (now, now); return true }
            guard now &- current.logged >= 60_000_000_000 else { return false }
            f = (current.since, now)
            return true
        }
        let text = "cannot write \(path) (\(reason)); state changes are answered 503 until it can"
        failureText.withLock { $0 = text }
        health?.set("state", text)
        if log { logger.error("state: \(text); retrying every 50 ms") }
    }

    /// Writes every change made so far, now, and returns when it is on disk (tests, shutdown).
    package func flush() { writer.withLock { $0 }?.flush() }

    /// Writes made since `open` (diagnostics and tests).
    package var writeCount: Int { completedWrites.withLock { $0 } }

    /// Stops the writer and lets go of the lock without the clean stop's compaction (tests: the
    /// file is left as a killed process leaves it).
    package func closeForTests() {
        for entry in entries.withLock({ $0 }) { entry.changes.connect(nil) }
        writer.withLock { w -> StateWriter? in defer { w = nil }; return w }?.stop()
        lock.release()
    }

    /// Flushes, stops following changes and ends the writer thread.
    package func close() {
        for entry in entries.withLock({ $0 }) { entry.changes.connect(nil) }
        let writer = self.writer.withLock { w -> StateWriter? in defer { w = nil }; return w }
        writer?.stop()
        logged.close()
        lock.release()
    }
}
