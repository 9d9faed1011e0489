/// A closure (or any value) behind a reference, to keep in a `Locked`. `withLock` hands its value
/// over `inout`; a closure stored there directly is re-abstracted on the way out and again on
/// the way back, so every access wraps it in two more thunks, and after some tens of thousands of
/// accesses a call through them overflows the stack. A reference is not re-abstracted.
package final class Boxed<Value: Sendable>: Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
