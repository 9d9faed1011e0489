import HTTPServer

/// What a persistent system calls after each committed change, so the state file follows it.
///
/// Unconnected (no `--state`) it costs one uncontended lock; connected, it marks the system
/// dirty and wakes the writer thread. It never writes itself, so it is safe on an event loop.
public final class ChangeSignal: Sendable {
    private let sink = Locked<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// Announces a committed change; call it after the change, outside the system's lock if you can.
    public func changed() {
        if let sink = sink.withLock({ $0 }) { sink() }
    }

    /// Routes changes to `handler` (the state store); `nil` disconnects.
    func connect(_ handler: (@Sendable () -> Void)?) {
        sink.withLock { $0 = handler }
    }
}
