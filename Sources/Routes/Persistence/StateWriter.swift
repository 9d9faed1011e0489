#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer
import Dispatch

/// Runs a write on its own thread after changes, coalescing bursts: a change is written at once
/// if the previous write started at least `interval` ago, else when it has; changes that arrive
/// meanwhile share that one write (group commit). So writes start at most once per `interval`,
/// and a change is on disk within `interval` plus the time of one write. Never blocks its callers
/// (event loops): who must know when a change is on disk asks `whenWritten`.
package final class StateWriter: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = Condition()
    private var requested: UInt64 = 0
    /// The `requested` count the write in progress (or the last one) covers.
    private var taken: UInt64 = 0
    /// The `requested` count the last finished attempt covered, whether it succeeded or not.
    private var attempted: UInt64 = 0
    private var lastStart: UInt64?
    private var urgent = false
    private var stopping = false
    private var running = false
    /// The `requested` count the last successful write covered.
    private var durable: UInt64 = 0
    /// The last attempt failed: the next waits `retryInterval`.
    private var failed = false
    /// Callers waiting for a change (by its `poke` number) to be written, or the write to fail.
    private var waiters: [(seq: UInt64, done: @Sendable (Bool) -> Void)] = []

    private let interval: UInt64
    private let retryInterval: UInt64 = 50_000_000
    /// Returns whether the write succeeded; a failed one is retried after `interval`.
    private let write: @Sendable () -> Bool

    package init(interval: TimeInterval, write: @escaping @Sendable () -> Bool) {
        self.interval = UInt64(max(0, interval) * 1e9)
        self.write = write
    }

    package func start() {
        condition.lock()
        running = true
        condition.unlock()
        DetachedThread.start(name: "mock-server state writer") { [self] in run() }
    }

    /// Notes a change; the writer thread picks it up. Returns the change's number.
    @discardableResult
    package func poke() -> UInt64 {
        condition.lock()
        requested &+= 1
        let seq = requested
        condition.signal()
        condition.unlock()
        return seq
    }

    /// Calls `done(true)` once change `seq` is written (at once if it is), or `done(false)` when
    /// the write that should have carried it fails. Runs on the writer thread or the caller's.
    func whenWritten(_ seq: UInt64, _ done: @escaping @Sendable (Bool) -> Void) {
        condition.lock()
        if durable >= seq {
            condition.unlock()
            done(true)
            return
        }
        waiters.append((seq, done))
        condition.unlock()
    }

    /// Writes every change noted so far now (skipping the wait) and returns once it is attempted.
    package func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = requested
        guard attempted < target, running else { return }
        urgent = true
        condition.broadcast()
        while attempted < target && running { condition.wait() }
    }

    /// Flushes, then ends the thread.
    package func stop() {
        flush()
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// When the latest write started (monotonic nanoseconds): the instant the once-per-interval
    /// rule is about, read by tests on the writer's own clock.
    package var lastWriteStart: UInt64? {
        condition.lock()
        defer { condition.unlock() }
        return lastStart
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func run() {
        condition.lock()
        while true {
            while requested == taken && !stopping { condition.wait() }
            if requested == taken { break }
            if !urgent && !stopping, let lastStart {
                let due = lastStart &+ (failed ? max(interval, retryInterval) : interval), now = StateWriter.now()
                if now < due {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(due - now) / 1e9))
                    continue
                }
            }
            urgent = false
            let target = requested
            taken = target
            lastStart = StateWriter.now()
            condition.unlock()
            let ok = write()
            condition.lock()
            attempted = target
            failed = !ok
            if ok { durable = target }
            // A failed write is tried again (after the interval) even if nothing else changes.
            if !ok && taken == target { taken = target &- 1 }
            var answered: [(seq: UInt64, done: @Sendable (Bool) -> Void)] = []
            if !waiters.isEmpty {
                // Success answers what it carried; a failure answers those waiting now (a change
                // that cannot be made durable is refused at once, not after every retry).
                answered = waiters.filter { $0.seq <= target || !ok }
                waiters.removeAll { $0.seq <= target || !ok }
            }
            condition.broadcast()
            if !answered.isEmpty {
                condition.unlock()
                for waiter in answered { waiter.done(ok) }
                condition.lock()
            }
        }
        let left = waiters
        waiters = []
        running = false
        condition.broadcast()
        condition.unlock()
        for waiter in left { waiter.done(durable >= waiter.seq) }
    }
}
