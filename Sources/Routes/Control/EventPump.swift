import Dispatch
import HTTPServer

/// Delivers one subscription's events, in order, to a sink that must not block (the events
/// WebSocket's thread-safe `send`), on its own serial queue so a publisher never waits for it.
/// When the hub drops the subscriber for falling behind, `onDropped` runs once (close the socket).
public final class EventPump: Sendable {
    private let subscription: EventSubscription

    public init(hub: EventHub, capacity: Int = 1024, send: @escaping @Sendable (MockEvent) -> Void,
                onDropped: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "mock-server.events")
        let box = Locked<EventSubscription?>(nil)
        let finished = Locked(false)
        let pump: @Sendable () -> Void = {
            guard let subscription = box.withLock({ $0 }) else { return }
            for event in subscription.drain() { send(event) }
            if subscription.isDropped && !finished.withLock({ old in defer { old = true }; return old }) { onDropped() }
        }
        subscription = hub.subscribe(capacity: capacity, onAvailable: { queue.async(execute: pump) })
        box.withLock { $0 = subscription }
        // Events published between subscribing and filling the box are drained here.
        queue.async(execute: pump)
    }

    /// Stops delivery (the WebSocket closed).
    public func cancel() { subscription.cancel() }
}
