import Dispatch
import HTTPServer

/// Delivers one subscription's events, in order, to a sink that must not block (the events
/// WebSocket's thread-safe `send`), on its own serial queue so a publisher never waits for it.
/// Events are sent in batches: the first event after a quiet spell schedules one delivery
/// `batchDelay` later, and everything published until then goes with it. Without that, every
/// request of a flood costs a thread hop, a loop wake-up and a write (a reading console slowed a
/// pipelined flood about 12×); the cost is at most `batchDelay` of latency on the live view.
/// When the hub drops the subscriber for falling behind, `onDropped` runs once (close the socket).
package final class EventPump: Sendable {
    /// How long the first event of a batch waits for the ones behind it.
    package static let defaultBatchDelay: DispatchTimeInterval = .milliseconds(1)

    private let subscription: EventSubscription

    package init(hub: EventHub, capacity: Int = 1024, batchDelay: DispatchTimeInterval = EventPump.defaultBatchDelay,
                send: @escaping @Sendable ([MockEvent]) -> Void, onDropped: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "mock-server.events")
        let box = Locked<EventSubscription?>(nil)
        let finished = Locked(false)
        // Set while a delivery is scheduled; cleared before it drains, so an event published after
        // the drain (its queue going from empty to non-empty) schedules the next one.
        let scheduled = Locked(false)
        let pump: @Sendable () -> Void = {
            scheduled.withLock { $0 = false }
            guard let subscription = box.withLock({ $0 }) else { return }
            let events = subscription.drain()
            if !events.isEmpty { send(events) }
            if subscription.isDropped && !finished.withLock({ old in defer { old = true }; return old }) { onDropped() }
        }
        let schedule: @Sendable () -> Void = {
            guard scheduled.withLock({ s in defer { s = true }; return !s }) else { return }
            queue.asyncAfter(deadline: .now() + batchDelay, execute: pump)
        }
        subscription = hub.subscribe(capacity: capacity, onAvailable: schedule)
        box.withLock { $0 = subscription }
        // Events published between subscribing and filling the box are drained here.
        queue.async(execute: pump)
    }

    /// Stops delivery (the WebSocket closed).
    package func cancel() { subscription.cancel() }
}
