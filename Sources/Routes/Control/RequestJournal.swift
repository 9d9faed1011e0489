import Foundation
import HTTPServer

/// The newest requests and gateway messages (API.md §6.1), a bounded ring behind one lock.
/// Recording copies no body and encodes nothing; redaction and JSON happen when read.
public final class RequestJournal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        /// The oldest entry once the ring is full.
        var head = 0
        var nextId = 1

        func ordered() -> ArraySlice<JournalEntry> {
            head == 0 ? entries[...] : ArraySlice(entries[head...] + entries[..<head])
        }
    }

    /// Entries kept at most; 0 turns the journal off.
    public let capacity: Int
    private let ring = Locked(Ring())
    private let events: EventHub?

    public init(capacity: Int = 1000, events: EventHub? = nil) {
        self.capacity = max(0, capacity)
        self.events = events
    }

    public var isEnabled: Bool { capacity > 0 }

    /// Appends an entry (its id is given here) and publishes it as a `request` event.
    public func record(_ entry: consuming JournalEntry) {
        guard capacity > 0 else { return }
        var entry = consume entry  // a mutable local the lock's closure may capture, moved, not copied
        // Copied only for a listener; a full ring swaps the entry into the oldest slot, so the
        // evicted one leaves in `entry` and is freed after the lock, with no copy either way.
        let publishing = events?.hasSubscribers == true
        var shown: JournalEntry?
        ring.withLock { r in
            entry.id = r.nextId
            r.nextId += 1
            if publishing { shown = entry }
            if r.entries.count < capacity {
                r.entries.append(entry)
            } else {
                swap(&r.entries[r.head], &entry)
                r.head = (r.head + 1) % capacity
            }
        }
        if let shown { events?.publish(kind: "request", at: shown.at) { shown.json } }
    }

    /// What `GET /__mock/requests` may filter on.
    public struct Filter: Sendable {
        public var system: String?
        public var method: String?
        public var path: PathPattern?
        public var status: Int?
        /// Only entries after this id; then the oldest `limit` of them.
        public var since: Int?
        public var limit = 100

        public init() {}
    }

    /// Matching entries, oldest first: the newest `limit`, or with `since` the oldest `limit` after it.
    public func entries(_ filter: Filter = Filter()) -> [JournalEntry] {
        let all = ring.withLock { $0.ordered() }
        let matching = all.filter { e in
            if let since = filter.since, e.id <= since { return false }
            if let system = filter.system, e.system != system { return false }
            if let method = filter.method, !e.method.equalsIgnoringASCIICase(method) { return false }
            if let status = filter.status, e.status != status { return false }
            if let path = filter.path, !path.matches(e.shownPath) { return false }
            return true
        }
        let limit = max(0, filter.limit)
        return filter.since == nil ? Array(matching.suffix(limit)) : Array(matching.prefix(limit))
    }

    /// Forgets every entry (ids keep increasing, so `since` stays meaningful).
    public func clear() {
        ring.withLock { r in
            r.entries.removeAll()
            r.head = 0
        }
    }
}
