import Foundation
import HTTPServer

/// The newest requests and gateway messages (API.md §6.1), a bounded ring behind one lock.
/// Recording copies no body and encodes nothing; redaction and JSON happen when read.
public final class RequestJournal: Sendable {
    /// The entries behind a mutex of their own rather than `Locked`: every request writes here,
    /// and `Locked`'s class property costs a dynamic exclusivity check per use.
    private final class Ring: @unchecked Sendable {
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        // Read and written only between lock and unlock of `mutex`, which already makes every
        // access exclusive; the runtime's check would cost ~110 instructions per request.
        @exclusivity(unchecked) private var entries: [JournalEntry] = []
        /// The oldest entry once the ring is full.
        @exclusivity(unchecked) private var head = 0
        @exclusivity(unchecked) private var nextId = 1

        init() {
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        /// Gives the entry the next id and moves it in; returns the id and, from a full ring, the
        /// entry it evicts, so that one is released after the lock.
        func append(_ entry: consuming JournalEntry, capacity: Int) -> (id: Int, evicted: JournalEntry?) {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            let id = nextId
            entry.id = id
            nextId += 1
            guard entries.count >= capacity else {
                entries.append(entry)
                return (id, nil)
            }
            swap(&entries[head], &entry)
            head = head + 1 == capacity ? 0 : head + 1
            return (id, entry)
        }

        /// Every entry, oldest first.
        func ordered() -> [JournalEntry] {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return head == 0 ? entries : Array(entries[head...] + entries[..<head])
        }

        /// Forgets every entry; ids keep counting.
        func clear() {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            entries.removeAll()
            head = 0
        }
    }

    /// Entries kept at most; 0 turns the journal off.
    public let capacity: Int
    private let ring = Ring()
    private let events: EventHub?

    public init(capacity: Int = 1000, events: EventHub? = nil) {
        self.capacity = max(0, capacity)
        self.events = events
    }

    public var isEnabled: Bool { capacity > 0 }

    /// Appends an entry (its id is given here) and publishes it as a `request` event.
    public func record(_ entry: consuming JournalEntry) {
        guard capacity > 0 else { return }
        guard let events, events.hasSubscribers else {
            _ = ring.append(entry, capacity: capacity)  // the evicted entry is released here, after the lock
            return
        }
        var shown = copy entry
        shown.id = ring.append(entry, capacity: capacity).id
        events.publish(kind: "request", at: shown.at) { shown.json }
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
        let all = ring.ordered()
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
        ring.clear()
    }
}
