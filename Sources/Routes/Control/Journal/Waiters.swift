import HTTPServer
import EmulationKit

/// Admin requests waiting (`?waitMs=`) for an entry to appear in the journal or the outbox
/// (docs/control-plane.md, "Arrange, isolate, verify"). No thread waits: each is a deferred response, completed by the thread that
/// records the entry, or by the transport's timer at its deadline. Bounded: past `capacity`
/// waiters a new one is refused (503), so a test cannot pin unbounded memory.
package final class Waiters: Sendable {
    /// At most this long (30,000 ms), unless the operator lowers it.
    package static let defaultMaxWaitMs = MockEnvironment.defaultMaxWaitMs
    package let capacity: Int
    /// The longest wait this server grants.
    package let maxWaitMs: Int

    private struct Waiter: Sendable {
        let id: Int
        /// The answer once the wait is over, nil while it is not.
        let ready: @Sendable () -> HTTPResponse?
        let promise: DeferredResponse
    }

    private let state = Locked<(next: Int, waiters: [Waiter])>((1, []))
    /// Read without the lock on every journaled request: nothing to check in the usual case.
    private let any = LockFreeFlag()

    package init(capacity: Int = 1024, maxWaitMs: Int = defaultMaxWaitMs) {
        self.capacity = capacity
        self.maxWaitMs = max(0, min(maxWaitMs, Waiters.defaultMaxWaitMs))
    }

    /// Answers at once when `ready` has an answer or `waitMs` is 0; else holds the answer until
    /// `ready` has one (checked after each change) or the deadline, when `ready`'s or `timeout`'s is
    /// sent; the hold is put in `context`.
    package func wait(ms waitMs: Int, in context: inout RequestContext, ready: @escaping @Sendable () -> HTTPResponse?,
                      timeout: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        if let now = ready() { return now }
        guard waitMs > 0 else { return timeout() }
        let id = state.withLock { s -> Int in
            defer { s.next += 1 }
            return s.next
        }
        let promise = DeferredResponse(timeoutNanos: UInt64(waitMs) * 1_000_000,
                                       onTimeout: { [weak self] in self?.remove(id); return ready() ?? timeout() },
                                       onCancel: { [weak self] in self?.remove(id) })
        // The count is checked under the lock that adds the waiter: racing waits never pass the cap together.
        let admitted = state.withLock { s -> Bool in
            guard s.waiters.count < capacity else { return false }
            s.waiters.append(Waiter(id: id, ready: ready, promise: promise))
            any.set(true)
            return true
        }
        guard admitted else {
            var busy = HTTPResponse.json(.serviceUnavailable, ["error": .string("too many requests are waiting (\(capacity)); answer or cancel some first")] as JSONValue)
            busy = busy.hinted("At most \(capacity) admin requests may wait at once; wait for fewer things at a time.")
            return busy
        }
        // A change between the first check and the registration would have found no waiter.
        poke()
        return context.deferring(timeout(), until: promise)
    }

    /// Something was recorded: completes every waiter whose answer is now ready.
    package func poke() {
        guard any.isSet else { return }
        let waiting = state.withLock { $0.waiters }
        for waiter in waiting {
            guard let answer = waiter.ready() else { continue }
            remove(waiter.id)
            _ = waiter.promise.complete(answer)
        }
    }

    /// How many requests are waiting (tests).
    package var count: Int { state.withLock { $0.waiters.count } }

    private func remove(_ id: Int) {
        state.withLock { s in
            s.waiters.removeAll { $0.id == id }
            any.set(!s.waiters.isEmpty)
        }
    }

    /// The `waitMs` query parameter: absent is 0; otherwise a whole number from 0 to `maxWaitMs`.
    /// Anything else is refused (400), not clamped: a test that asked for a longer wait would
    /// otherwise get an empty answer early and read it as "nothing came". The hint names the
    /// bound and where it comes from, so the test can wait in steps instead.
    package func waitMs(_ query: Parameters) -> Result<Int, ControlPlane.FilterProblem> {
        guard let text = query["waitMs"] else { return .success(0) }
        guard let n = Int(text), (0...maxWaitMs).contains(n) else {
            let bound = "this server's bound of \(maxWaitMs) ms (--max-wait-ms; default and most \(Waiters.defaultMaxWaitMs))"
            let hint = if let n = Int(text), n > maxWaitMs {
                "waitMs=\(n) is above \(bound): to wait longer, ask again when an answer comes back without the match."
            } else {
                "waitMs is a whole number from 0 to \(bound)."
            }
            return .failure(ControlPlane.FilterProblem(
                description: "\"waitMs\" must be a whole number of milliseconds from 0 to \(maxWaitMs)", hint: hint))
        }
        return .success(n)
    }
}
