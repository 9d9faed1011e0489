#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A value guarded by a mutex: the only way to reach it is `withLock`, so access is safe by construction.
public final class Locked<Value>: @unchecked Sendable {
    // Inlinable so callers in other modules get a specialised, metadata-free lock/unlock.
    // Only `withLock` reaches it, under the mutex, so accesses never overlap: the dynamic
    // exclusivity check (swift_beginAccess/endAccess, ~120 instructions a call) proves nothing.
    @exclusivity(unchecked) @usableFromInline var value: Value
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
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
    public func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
