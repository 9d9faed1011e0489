#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One number per thread: what the request being answered on this thread has done (the state
/// store marks the sequence number of each change it is told of, so the durability gate knows
/// which change an answer waits for). A loop thread answers one request at a time.
package enum ThreadMark {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// The mark of this thread (0: none since the last `clear`).
    package static var value: UInt64 { UInt64(UInt(bitPattern: pthread_getspecific(key))) }

    /// Reading first: most requests change nothing, and a read costs a third of a write.
    package static func clear() {
        if pthread_getspecific(key) != nil { _ = pthread_setspecific(key, nil) }
    }

    /// Raises this thread's mark to `value` (never lowers it).
    package static func raise(to value: UInt64) {
        guard value > self.value else { return }
        _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(truncatingIfNeeded: value)))
    }
}
