#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The state file as a base and a change log: the base (`PATH`, the usual envelope) holds every
/// part at some generation G; `PATH.log.G` holds what changed since, one group of records per
/// write, each group flushed to the device before its requests are answered. A change costs its
/// records, not the whole state. When the log outgrows the base, a new base is written in the
/// background from the log's own image of the state (no re-encoding) while changes go to the
/// next log; the old log is removed once the new base is on disk. A start replays the logs
/// over the base and begins a new generation; a clean stop leaves the base alone, complete.
/// Touched by the writer thread only (and by open and close, when it does not run).
final class LoggedState: @unchecked Sendable {
    let path: String
    private let logger: Logger
    /// Each part's image: what the log holds of it.
    private var images: [String: RecordImage] = [:]
    private var log: AppendFile?
    private(set) var generation = 0
    /// Groups a failed write could not append, tried again before the next.
    private var unwritten: [UInt8] = []
    private var commits: UInt64 = 0
    /// `prepareRebase` ran: the next `writePrepared` writes a new base from the images.
    private var baseDue = false
    /// The last base written (set by the compaction thread too).
    private let baseSize = Locked(0)
    /// Tests: every write fails with this reason (as a full disk makes it fail).
    let simulatedFailure = Locked<String?>(nil)
    /// A base being written in the background.
    private let compacting = Locked(false)
    private let compactionDone = Condition()
    /// The log is compacted once it is this big and bigger than the base (tests lower it).
    let compactionBytes = Locked(4 * 1024 * 1024)

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    // MARK: - Writing

    /// Appends what changed in `dirty` parts as one group and flushes it. Throws when it could not.
    func commit(_ entries: [PersistentEntry], dirty: Set<String>) throws {
        try prepare(entries, dirty: dirty)
        try writePrepared()
    }

    /// What changed in `dirty` parts, as one group queued for `writePrepared` (the parts are read
    /// here, under the store's order lock; the disk is touched there, after it).
    func prepare(_ entries: [PersistentEntry], dirty: Set<String>) throws {
        var ops: [(part: String, op: RecordOp)] = []
        for entry in entries where dirty.contains(entry.key) {
            for op in try diff(entry) { ops.append((entry.key, op)) }
        }
        if !ops.isEmpty {
            commits &+= 1
            unwritten += ChangeLog.encode(ops, commit: commits)
        }
    }

    /// Writes what `prepare` (or `prepareRebase`) queued and flushes it to the device.
    func writePrepared() throws {
        if baseDue {
            try writeBase(generation: generation + 1, parts: baseParts())
            baseDue = false
            return
        }
        guard !unwritten.isEmpty, let log else { return }
        if let reason = simulatedFailure.withLock({ $0 }) { throw DurableFile.Failure(description: reason) }
        try log.appendAndSync(unwritten)
        unwritten = []
        if log.size > max(compactionBytes.withLock { $0 }, baseSize.withLock { $0 }) { startCompaction() }
    }

    /// The part's records that differ from its image (the image follows).
    private func diff(_ entry: PersistentEntry) throws -> [RecordOp] {
        let image = images[entry.key] ?? RecordImage()
        images[entry.key] = image
        var sink = RecordSink(image: image)
        if let records = entry.records { records(&sink) } else { sink.whole([UInt8](try entry.encode())) }
        return sink.ops
    }

    /// Images of every part from scratch (their current state), then a new base and an empty log.
    func rebase(_ entries: [PersistentEntry]) throws {
        waitForCompaction()
        try prepareRebase(entries)
        try writePrepared()
    }

    /// Images of every part from scratch, a new base due at `writePrepared` (which holds every
    /// part whole: a swap reaches the file as one write).
    func prepareRebase(_ entries: [PersistentEntry]) throws {
        images = [:]
        for entry in entries { _ = try diff(entry) }
        unwritten = []
        baseDue = true
    }

    /// The base of `generation` from `parts`, then its (empty) log; older logs are removed.
    private func writeBase(generation: Int, parts: [(key: String, json: Data)]) throws {
        let data = StateFile.envelope(savedAt: Date(), parts: parts, generation: generation)
        try AtomicFile.replace(path, with: data)
        baseSize.withLock { $0 = data.count }
        log = try AppendFile(path: ChangeLog.path(for: path, generation: generation), truncating: true)
        self.generation = generation
        removeLogs(before: generation)
    }

    private func baseParts() -> [(key: String, json: Data)] {
        images.map { (key: $0.key, json: Data($0.value.json())) }
    }

    private func removeLogs(before generation: Int) {
        for old in ChangeLog.generations(of: path) where old < generation {
            try? FileManager.default.removeItem(atPath: ChangeLog.path(for: path, generation: old))
        }
    }

    /// Changes go to the next log at once; the base that ends the old one is written meanwhile.
    private func startCompaction() {
        guard compacting.withLock({ c in defer { c = true }; return !c }) else { return }
        let next = generation + 1
        let newLog: AppendFile
        do { newLog = try AppendFile(path: ChangeLog.path(for: path, generation: next), truncating: true) } catch {
            compacting.withLock { $0 = false }
            return   // the old log keeps growing; tried again after the next write
        }
        let parts = baseParts()
        log = newLog
        generation = next
        let path = self.path, logger = self.logger
        DetachedThread.start(name: "mock-server state compaction") { [self] in
            let data = StateFile.envelope(savedAt: Date(), parts: parts, generation: next)
            do {
                try AtomicFile.replace(path, with: data)
                baseSize.withLock { $0 = data.count }
                removeLogs(before: next)
            } catch {
                // The old base and both logs stay: a start replays them in order.
                logger.warning("state: cannot compact \(path) (\(error)); its change log keeps growing")
            }
            compactionDone.lock()
            compacting.withLock { $0 = false }
            compactionDone.broadcast()
            compactionDone.unlock()
        }
    }

    func waitForCompaction() {
        compactionDone.lock()
        while compacting.withLock({ $0 }) { compactionDone.wait() }
        compactionDone.unlock()
    }

    /// A clean stop: everything into the base, the log removed, so the file alone is complete.
    func close() {
        waitForCompaction()
        guard let log, unwritten.isEmpty else { return }   // the disk refused the last groups: keep what is on it
        guard log.size > 0 else { return removeLogs(before: generation + 1) }   // the base is complete already
        do {
            let data = StateFile.envelope(savedAt: Date(), parts: baseParts(), generation: generation + 1)
            try AtomicFile.replace(path, with: data)
            removeLogs(before: generation + 2)
        } catch {
            logger.warning("state: cannot compact \(path) at the stop (\(error)); the change log beside it is kept and replayed at the next start")
        }
    }

    // MARK: - Loading

    /// The logs' committed records over `base` (already restored into the parts): applies them
    /// through the parts' images and restores the result. Throws `StateFileError` (do not start).
    func replay(_ entries: [PersistentEntry], baseGeneration: Int) throws {
        let generations = ChangeLog.generations(of: path).filter { $0 >= baseGeneration }
        var ops: [(part: String, op: RecordOp)] = []
        for g in generations { ops += try ChangeLog.read(ChangeLog.path(for: path, generation: g)) }
        generation = max(baseGeneration, generations.last ?? 0)
        guard !ops.isEmpty else { return }
        images = [:]
        for entry in entries { _ = try diff(entry) }
        var raw: [String: RecordImage] = [:]
        for (key, image) in images { raw[key] = image.rawCopy() }
        for (part, op) in ops { raw[part]?.apply(op) }
        let data = StateFile.envelope(savedAt: Date(), parts: raw.map { (key: $0.key, json: Data($0.value.json())) }, generation: generation)
        let loaded = try StateFile.decode(data, path: path, entries: entries)
        for restore in loaded.restores {
            do { try restore.run() } catch {
                throw StateFileError(path, "after replaying its change log, at systems.\(restore.key): \(error)")
            }
        }
        logger.info("state: \(ops.count) changes replayed from \(generations.count == 1 ? "the change log" : "\(generations.count) change logs") beside \(path)")
    }
}
