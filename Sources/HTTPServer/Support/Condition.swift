#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A mutex with a condition variable, as `NSCondition` (which FoundationEssentials lacks on Linux).
package final class Condition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let cond: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        cond.initialize(to: pthread_cond_t())
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    package func signal() { pthread_cond_signal(cond) }
    package func broadcast() { pthread_cond_broadcast(cond) }

    /// Waits for a signal; the caller holds the lock (and checks its predicate in a loop).
    package func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits for a signal until `deadline` (wall clock, as NSCondition); false when it passed.
    @discardableResult
    package func wait(until deadline: Date) -> Bool {
        let t = max(0, deadline.timeIntervalSince1970)
        let seconds = t.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((t - seconds) * 1e9))
        return pthread_cond_timedwait(cond, mutex, &ts) != ETIMEDOUT
    }
}
