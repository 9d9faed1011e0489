import HTTPServer

/// What a persistent system calls after each committed change, so the state file follows it.
///
/// Unconnected (no `--state`) it costs one uncontended lock; connected, it marks the system
/// dirty and wakes the writer thread. It never writes itself, so it is safe on an event loop.
@usableFromInline package final class ChangeSignal: Sendable {
    /// The handler in a box (`Boxed`: a closure kept in `Locked` itself gains two thunks per access).
    private let sink = Locked<Boxed<@Sendable () -> Void>?>(nil)

    package init() {}

    /// Announces a committed change; call it after the change, outside the system's lock if you can.
    @usableFromInline package func changed() {
        if let sink = sink.withLock({ $0 }) { sink.value() }
    }

    /// Routes changes to `handler` (the state store); `nil` disconnects.
    package func connect(_ handler: (@Sendable () -> Void)?) {
        sink.withLock { $0 = handler.map(Boxed.init) }
    }
}
