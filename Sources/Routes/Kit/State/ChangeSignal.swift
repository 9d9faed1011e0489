import HTTPServer

/// What a persistent system calls after each committed change, so the state file follows it.
///
/// Unconnected (no `--state`) it costs one uncontended lock; connected, it marks the system
/// dirty and wakes the writer thread. It never writes itself, so it is safe on an event loop.
@usableFromInline package final class ChangeSignal: Sendable {
    /// The handler in a box: a closure kept in `Locked` itself was read through an `inout`
    /// access that wrote it back re-abstracted, so every `changed()` wrapped it in two more
    /// thunks, and a call went through thousands of them after a few thousand changes.
    private final class Sink: Sendable {
        let call: @Sendable () -> Void
        init(_ call: @escaping @Sendable () -> Void) { self.call = call }
    }

    private let sink = Locked<Sink?>(nil)

    package init() {}

    /// Announces a committed change; call it after the change, outside the system's lock if you can.
    @usableFromInline package func changed() {
        if let sink = sink.withLock({ $0 }) { sink.call() }
    }

    /// Routes changes to `handler` (the state store); `nil` disconnects.
    package func connect(_ handler: (@Sendable () -> Void)?) {
        sink.withLock { $0 = handler.map(Sink.init) }
    }
}
