#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The newest requests and gateway messages (docs/control-plane.md), a bounded ring behind one lock.
/// Recording copies no body and encodes nothing; redaction and JSON happen when read.
package final class RequestJournal: Sendable {
    private struct Ring {
        var entries: [JournalEntry] = []
        /// The oldest entry once the ring is full.
        var head = 0
        var nextId = 1

        /// Gives the entry the next id and moves it in; returns the id and, from a full ring, the
        /// entry it evicts, so that one is released after the lock.
        mutating func append(_ entry: consuming JournalEntry, capacity: Int) -> (id: Int, evicted: JournalEntry?) {
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
            head == 0 ? entries : Array(entries[head...] + entries[..<head])
        }
    }

    /// Entries kept at most; 0 turns the journal off.
    package let capacity: Int
    private let ring = Locked(Ring())
    private let events: EventHub?

    /// Requests waiting for an entry (`?waitMs=`), checked after each record.
    private let waiters: Waiters?
    /// How an entry is shown: the systems' secret fields and message types.
    package let reading: EntryReading

    package convenience init(capacity: Int = 1000, events: EventHub? = nil, waiters: Waiters? = nil) {
        self.init(capacity: capacity, events: events, waiters: waiters, reading: EntryReading())
    }

    package init(capacity: Int, events: EventHub?, waiters: Waiters?, reading: EntryReading) {
        self.capacity = max(0, capacity)
        self.events = events
        self.waiters = waiters
        self.reading = reading
    }

    /// An entry as a reader sees it: JSON, secrets redacted.
    package func shown(_ entry: JournalEntry) -> JSONValue { entry.json(reading) }

    package var isEnabled: Bool { capacity > 0 }

    /// Appends an entry (its id is given here) and publishes it as a `request` event.
    package func record(_ entry: JournalEntry) {
        guard capacity > 0 else { return }
        // An entry is an id and one reference: handing it into the lock costs a retain.
        // The evicted entry comes out of the lock and is released here, not while holding it.
        let (id, _) = ring.withLock { $0.append(entry, capacity: capacity) }
        waiters?.poke()
        guard let events, events.hasSubscribers else { return }
        var shown = entry
        shown.id = id
        events.publish(kind: "request", at: shown.at) { [reading] in shown.json(reading) }
    }

    /// What `GET /__mock/requests` may filter on.
    package struct Filter: Sendable {
        package var system: String?
        package var method: String?
        package var path: PathPattern?
        package var status: Int?
        /// Only entries after this id; then the oldest `limit` of them.
        package var since: Int?
        package var limit = 100
        /// Text the request body (as shown, after redaction) contains.
        package var body: String?
        /// Only entries with (true) or without (false) a hint.
        package var hint: Bool?
        /// For a count that waits: how many matches end the wait.
        package var atLeast: Int?

        package init() {}

        package func matches(_ e: JournalEntry, _ reading: EntryReading) -> Bool {
            if let since, e.id <= since { return false }
            if let system, e.system != system { return false }
            if let method, !e.method.equalsIgnoringASCIICase(method) { return false }
            if let status, e.status != status { return false }
            if let hint, (e.hint != nil) != hint { return false }
            if let path, !path.matches(e.shownPath(reading)) { return false }
            if let body, !e.shownRequestBody(reading).contains(body) { return false }
            return true
        }
    }

    /// Matching entries, oldest first: the newest `limit`, or with `since` the oldest `limit` after it.
    package func entries(_ filter: Filter = Filter()) -> [JournalEntry] {
        let all = ring.withLock { $0.ordered() }
        let matching = all.filter { filter.matches($0, reading) }
        let limit = max(0, filter.limit)
        return filter.since == nil ? Array(matching.suffix(limit)) : Array(matching.prefix(limit))
    }

    /// The entry with this id, if the ring still holds it.
    package func entry(id: Int) -> JournalEntry? {
        ring.withLock { r in r.entries.first { $0.id == id } }
    }

    /// How many entries match (`limit` aside).
    package func count(_ filter: Filter) -> Int {
        // A count needs no order: the ring as stored, not rebuilt oldest-first (a waiting count is
        // checked after every request).
        ring.withLock { $0.entries }.reduce(0) { $0 + (filter.matches($1, reading) ? 1 : 0) }
    }

    /// Forgets the entries with these ids (`DELETE /__admin/requests/{id}` and WireMock's removals);
    /// how many were there.
    @discardableResult
    package func remove(ids: Set<Int>) -> Int {
        ring.withLock { r in
            let kept = r.ordered().filter { !ids.contains($0.id) }
            let removed = r.entries.count - kept.count
            r.entries = kept
            r.head = 0
            return removed
        }
    }

    /// Forgets every entry (ids keep increasing, so `since` stays meaningful).
    package func clear() {
        ring.withLock { r in
            r.entries.removeAll()
            r.head = 0
        }
    }
}
