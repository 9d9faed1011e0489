import HTTPServer

/// A system's state behind a lock that announces every change: `withLock` (which may change the
/// value) signals `changes` after the body returns without throwing; `read` never does.
/// Swapping a `Locked<State>` for a `StateCell<State>` (and reads for `read`) makes a system's
/// every committed change reach the state file. Its accessors are inlinable so the systems
/// (other modules) get them specialised for their state, not through generic metadata.
@usableFromInline package final class StateCell<Value: Sendable>: Sendable {
    @usableFromInline package let storage: Locked<Value>
    /// Signalled after each `withLock` and `replace`.
    @usableFromInline package let changes = ChangeSignal()

    package init(_ value: Value) { storage = Locked(value) }

    /// Exclusive access that may change the value; a body that throws announces nothing
    /// (callers that may throw must not have changed anything by then: validate first, then
    /// commit without throwing, as musbooking's `transaction(validate:commit:)` enforces).
    @inlinable @discardableResult
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        let result = try storage.withLock(body)
        changes.changed()
        return result
    }

    /// Exclusive access that announces nothing: for the change log taking its bookkeeping
    /// (`TouchedKeys`) out of the value, which is not a change of the state itself.
    @inlinable package func drain<R>(_ body: (inout Value) -> R) -> R {
        storage.withLock(body)
    }

    /// Exclusive read-only access: announces nothing.
    @inlinable package func read<R, E: Error>(_ body: (Value) throws(E) -> R) throws(E) -> R {
        try storage.withLock { (value) throws(E) -> R in try body(value) }
    }

    /// A copy of the value (cheap for copy-on-write collections): what snapshots take.
    @inlinable package var value: Value { storage.withLock { $0 } }

    /// Replaces the value and announces it.
    @inlinable package func replace(_ value: Value) {
        storage.withLock { $0 = value }
        changes.changed()
    }
}
