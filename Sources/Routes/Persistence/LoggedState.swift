#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import EmulationKit

/// The state file as a base and a change log: the base (`PATH`, the usual envelope) holds every
/// part at some generation G; `PATH.log.G` holds what changed since, one group of records per
/// write, each group flushed to the device before its requests are answered. A change costs its
/// records, not the whole state. When the log outgrows the base, a new base is written in the
/// background from the log's own image of the state (no re-encoding) while changes go to the
/// next log; the old log is removed once the new base is on disk. A start replays the logs
/// over the base and begins a new generation; a clean stop leaves the base alone, complete.
/// Touched by the writer thread only (and by open and close, when it does not run).
package final class LoggedState: @unchecked Sendable {
    package let path: String
    /// The path as the user gave it, for messages (`path` is resolved: on a Mac a temporary
    /// folder's `/var/…` resolves to `/private/var/…`, a path the user never typed).
    private let shownPath: String
    private let logger: Logger
    /// Each part's image: what the log holds of it.
    private var images: [String: RecordImage] = [:]
    private var log: AppendFile?
    private(set) var generation = 0
    /// The line of bases and logs this one continues (the loaded base's), or a new one.
    private(set) var epoch = LoggedState.newEpoch()
    /// The log was just created: its header goes with its first group (one flush for both).
    private var headerPending = false
    /// Groups a failed write could not append, tried again before the next.
    private var unwritten: [UInt8] = []
    private var commits: UInt64 = 0
    /// `prepareRebase` ran: the next `writePrepared` writes a new base from the images.
    private var baseDue = false
    /// The last base written (set by the compaction thread too).
    private let baseSize = Locked(0)
    /// Tests: every write fails with this reason (as a full disk makes it fail).
    package let simulatedFailure = Locked<String?>(nil)
    /// A base being written in the background.
    private let compacting = Locked(false)
    private let compactionDone = Condition()
    /// The log is compacted once it is this big and bigger than the base (tests lower it).
    package let compactionBytes = Locked(4 * 1024 * 1024)

    /// - Parameters:
    ///   - path: the resolved state file, which every file operation uses.
    ///   - shownAs: the path as given, which messages name; `path` when omitted.
    package init(path: String, shownAs: String? = nil, logger: Logger) {
        self.path = path
        self.shownPath = shownAs ?? path
        self.logger = logger
    }

    /// `file` (the state file or one beside it) as messages name it: under the given path.
    private func shown(_ file: String) -> String {
        file.hasPrefix(path) ? shownPath + file.dropFirst(path.count) : file
    }

    // MARK: - Writing

    /// Appends what changed in `dirty` parts as one group and flushes it. Throws when it could not.
    package func commit(_ entries: [PersistentEntry], dirty: Set<String>) throws {
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
            waitForCompaction()   // here, after the store's order lock: a group never waits for a base write
            try writeBase(generation: generation + 1, parts: baseParts())
            baseDue = false
            return
        }
        guard !unwritten.isEmpty, let log else { return }
        if let reason = simulatedFailure.withLock({ $0 }) { throw DurableFile.Failure(description: reason) }
        try log.appendAndSync(headerPending ? ChangeLog.header(generation: generation, epoch: epoch) + unwritten : unwritten)
        headerPending = false
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
        let data = StateFile.envelope(savedAt: Date(), parts: parts, generation: generation, epoch: epoch)
        try AtomicFile.replace(path, with: data)
        baseSize.withLock { $0 = data.count }
        log = try AppendFile(path: ChangeLog.path(for: path, generation: generation), truncating: true)
        headerPending = true
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
        headerPending = true
        generation = next
        let path = self.path, shownPath = self.shownPath, logger = self.logger, epoch = self.epoch
        DetachedThread.start(name: "mock-server state compaction") { [self] in
            let data = StateFile.envelope(savedAt: Date(), parts: parts, generation: next, epoch: epoch)
            do {
                try AtomicFile.replace(path, with: data)
                baseSize.withLock { $0 = data.count }
                removeLogs(before: next)
            } catch {
                // The old base and both logs stay: a start replays them in order.
                logger.warning("state: cannot compact \(shownPath) (\(error)); its change log keeps growing")
            }
            compactionDone.lock()
            compacting.withLock { $0 = false }
            compactionDone.broadcast()
            compactionDone.unlock()
        }
    }

    package func waitForCompaction() {
        compactionDone.lock()
        while compacting.withLock({ $0 }) { compactionDone.wait() }
        compactionDone.unlock()
    }

    /// A clean stop: everything into the base, the log removed, so the file alone is complete.
    package func close() {
        waitForCompaction()
        guard let log, unwritten.isEmpty else { return }   // the disk refused the last groups: keep what is on it
        guard log.size > 0 else { return removeLogs(before: generation + 1) }   // the base is complete already
        do {
            let data = StateFile.envelope(savedAt: Date(), parts: baseParts(), generation: generation + 1, epoch: epoch)
            try AtomicFile.replace(path, with: data)
            removeLogs(before: generation + 2)
        } catch {
            logger.warning("state: cannot compact \(shownPath) at the stop (\(error)); the change log beside it is kept and replayed at the next start")
        }
    }

    // MARK: - Loading

    /// The logs that follow `base` (already restored into the parts), their committed records
    /// applied through the parts' images and the result restored. Without a base (a new file)
    /// nothing is replayed. Any log that does not follow the base (another epoch, a gap in the
    /// generations, or any log when there is no base) is set aside under a new name with a
    /// warning, never applied nor removed; an unreadable or damaged log throws `StateFileError`
    /// (do not start). Logs are removed later only by a new base that holds their changes.
    package func replay(_ entries: [PersistentEntry], base: (generation: Int, epoch: String?)?) throws {
        if let epoch = base?.epoch { self.epoch = epoch }
        var ops: [(part: String, op: RecordOp)] = []
        var replayed = 0, next = base?.generation ?? 0
        for g in ChangeLog.generations(of: path) {
            let file = ChangeLog.path(for: path, generation: g)
            let bytes = try ChangeLog.bytes(file, shownAs: shown(file))
            let header = ChangeLog.header(of: bytes)
            let follows: Bool
            if let base, let epoch = base.epoch {
                // This line's log: older ones are in the base already; newer ones follow it without a gap.
                if header?.epoch == epoch && header?.generation == g && g < base.generation { continue }
                follows = header?.epoch == epoch && header?.generation == g && g == next
            } else if let base {
                // A base from before epochs: its logs had no header either.
                if header == nil && g < base.generation { continue }
                follows = header == nil && g == next
            } else {
                follows = false
            }
            if !follows {
                // The base's own log, made but killed before its first write finished: it holds
                // nothing committed (the next base replaces it).
                if base?.epoch != nil, header == nil, (try? ChangeLog.read(bytes, path: shown(file)))?.isEmpty == true { continue }
                try setAside(file, why: base == nil ? "there is no state file for it to follow" : "it does not follow the state file (another epoch or generation)")
                continue
            }
            let contents = try ChangeLog.read(bytes, path: shown(file))
            if let torn = contents.tornTail {
                logger.warning("state: \(shown(file)): the last group of changes (offset \(torn.offset), \(torn.length) bytes) is torn or fails its checksum, so it was never answered (the process stopped while writing it); dropped")
            }
            ops += contents.ops
            replayed += 1
            next = g + 1
        }
        generation = max(base?.generation ?? 0, next - 1)
        guard !ops.isEmpty else { return }
        images = [:]
        for entry in entries { _ = try diff(entry) }
        var raw: [String: RecordImage] = [:]
        for (key, image) in images { raw[key] = image.rawCopy() }
        for (part, op) in ops { raw[part]?.apply(op) }
        let data = StateFile.envelope(savedAt: Date(), parts: raw.map { (key: $0.key, json: Data($0.value.json())) }, generation: generation)
        let loaded = try StateFile.decode(data, path: shownPath, entries: entries)
        for restore in loaded.restores {
            do { try restore.run() } catch {
                throw StateFileError(shownPath, "after replaying its change log, at systems.\(restore.key): \(error)")
            }
        }
        logger.info("state: \(ops.count) changes replayed from \(replayed == 1 ? "the change log" : "\(replayed) change logs") beside \(shownPath)")
    }

    /// Renames a log that is not this base's (`PATH.log.N.stale`, numbered when taken) and says
    /// so. One that cannot be renamed stops the start: left in place, a new base would remove it.
    private func setAside(_ file: String, why: String) throws {
        var target = file + ".stale", n = 1
        while FileManager.default.fileExists(atPath: target) {
            n += 1
            target = file + ".stale\(n)"
        }
        guard rename(file, target) == 0 else {
            throw StateFileError(shown(file), "this change log is not replayed (\(why)) and cannot be set aside as \(shown(target)) (\(String(cString: strerror(errno)))); move it away")
        }
        logger.warning("state: \(shown(file)) set aside as \(shown(target)), not replayed: \(why)")
    }

    private static func newEpoch() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
