#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import HTTPServer
import EmulationKit

/// One event of `/__mock/events`: `{"kind", "at", "data"}` already encoded, with its place in order.
package struct MockEvent: Sendable {
    /// Increasing across the hub: events reach every subscriber in this order.
    package let sequence: Int
    package let kind: String
    /// The whole event as JSON text.
    package let json: [UInt8]

    package var text: String { String(decoding: json, as: UTF8.self) }
}

/// Fans events out to subscribers (the events WebSocket, the console, tests). Each subscriber has a
/// bounded queue; one that falls behind is dropped, so a slow reader never blocks a publisher.
package final class EventHub: Sendable {
    private struct State {
        var subscribers: [Int: EventSubscription] = [:]
        var nextId = 1
        var sequence = 0
    }

    private let state = Locked(State())
    /// Set under `state`'s lock whenever the subscribers change; read by every request without a lock.
    private let listening = LockFreeFlag()

    package init() {}

    /// Whether anyone listens; publishers skip encoding when nobody does.
    package var hasSubscribers: Bool { listening.isSet }

    /// A new subscriber holding at most `capacity` undelivered events. `onAvailable` (if given)
    /// runs on the publisher's thread, outside every lock, when its queue goes from empty to non-empty.
    package func subscribe(capacity: Int = 1024, onAvailable: (@Sendable () -> Void)? = nil) -> EventSubscription {
        let subscription = state.withLock { s in
            let sub = EventSubscription(id: s.nextId, capacity: max(1, capacity), hub: self, onAvailable: onAvailable)
            s.nextId += 1
            s.subscribers[sub.id] = sub
            listening.set(!s.subscribers.isEmpty)
            return sub
        }
        return subscription
    }

    package func remove(_ id: Int) {
        state.withLock { s in
            s.subscribers[id] = nil
            listening.set(!s.subscribers.isEmpty)
        }
    }

    /// Publishes `{"kind", "at", "data"}`; `data` is built only when someone listens.
    package func publish(kind: String, at date: Date, data: () -> JSONValue) {
        guard hasSubscribers else { return }
        let object: JSONValue = ["kind": .string(kind), "at": .string(ISO8601.string(date)), "data": data()]
        var bytes: [UInt8] = []
        object.sortedByKey.appendJSON(to: &bytes)
        var wake: [@Sendable () -> Void] = []
        state.withLock { s in
            s.sequence += 1
            let event = MockEvent(sequence: s.sequence, kind: kind, json: bytes)
            for (id, sub) in s.subscribers {
                switch sub.enqueue(event) {
                case .queued(let becameAvailable):
                    if becameAvailable, let callback = sub.onAvailable { wake.append(callback) }
                case .dropped:
                    s.subscribers[id] = nil
                    if let callback = sub.onAvailable { wake.append(callback) }
                }
            }
            listening.set(!s.subscribers.isEmpty)
        }
        for callback in wake { callback() }
    }
}

/// One subscriber's queue: read with `next(timeout:)` (blocking, for tests) or `drain()`.
package final class EventSubscription: Sendable {
    package enum Enqueued { case queued(becameAvailable: Bool), dropped }

    private struct State {
        var queue: [MockEvent] = []
        var head = 0
        var dropped = false
        var cancelled = false
        var count: Int { queue.count - head }
    }

    package let id: Int
    package let capacity: Int
    package let onAvailable: (@Sendable () -> Void)?
    private let unsubscribe: @Sendable (Int) -> Void
    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)

    package init(id: Int, capacity: Int, hub: EventHub, onAvailable: (@Sendable () -> Void)?) {
        self.id = id
        self.capacity = capacity
        unsubscribe = { [weak hub] id in hub?.remove(id) }
        self.onAvailable = onAvailable
    }

    package func enqueue(_ event: MockEvent) -> Enqueued {
        let result: Enqueued = state.withLock { s in
            guard !s.dropped && !s.cancelled else { return .dropped }
            guard s.count < capacity else { s.dropped = true; return .dropped }
            s.queue.append(event)
            return .queued(becameAvailable: s.count == 1)
        }
        signal.signal()
        return result
    }

    /// True once the hub dropped this subscriber for falling `capacity` events behind.
    package var isDropped: Bool { state.withLock { $0.dropped } }

    /// Every queued event, oldest first, without waiting.
    package func drain() -> [MockEvent] {
        state.withLock { s in
            let events = Array(s.queue[s.head...])
            s.queue.removeAll(keepingCapacity: true)
            s.head = 0
            return events
        }
    }

    /// The next event, waiting up to `timeout` seconds; nil on timeout or once dropped and empty.
    package func next(timeout: Double) -> MockEvent? {
        let deadline = DispatchTime.now() + timeout
        while true {
            let (event, over): (MockEvent?, Bool) = state.withLock { s in
                if s.count > 0 {
                    let e = s.queue[s.head]
                    s.head += 1
                    if s.head > 64 && s.head * 2 > s.queue.count { s.queue.removeFirst(s.head); s.head = 0 }
                    return (e, false)
                }
                return (nil, s.dropped || s.cancelled)
            }
            if let event { return event }
            if over { return nil }
            if signal.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Stops receiving events.
    package func cancel() {
        state.withLock { $0.cancelled = true }
        unsubscribe(id)
        signal.signal()
    }
}
