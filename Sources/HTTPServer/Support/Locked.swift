#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A value guarded by a mutex: the only way to reach it is `withLock`, so access is safe by construction.
/// A closure (or an optional or tuple of closures) goes in a `Boxed`, never in the value itself.
@usableFromInline package final class Locked<Value>: @unchecked Sendable {
    // Inlinable so callers in other modules get a specialised, metadata-free lock/unlock.
    // Reached only under the mutex, so the runtime exclusivity check would add cost and no safety.
    @exclusivity(unchecked) @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; its typed error passes through.
    @inlinable
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if MemoryLayout<Value>.size == 0 {
            // A lock with no value (`Locked(())`): its empty `value` has the address of `mutex`,
            // so an inout access to it looks to ThreadSanitizer like a write to the mutex pointer
            // that another thread reads before locking. A local copy of nothing is the same value.
            var none = value
            return try body(&none)
        }
        return try body(&value)
    }
}
