import HTTPServer

/// Under `--state`, a request that changed state is answered only once its change is in the
/// state file: the answer is deferred (no loop thread waits) until the store's writer has
/// written it, and several requests share one write (`DurabilityStage` does the holding). A change that cannot be written is
/// answered 503 with a hint instead (it stays in memory and reaches the file once it can).
///
/// One rule for every path: the store marks the handler's thread with the number of each change
/// it is told of (`ThreadMark`: a system's change, a reset, a swapped-in app), and the answer waits
/// for the highest. An answer the handler already deferred (a swap waiting for every loop) waits
/// for that first, then for its change.
@usableFromInline package final class DurabilityGate: Sendable {
    let store: StateStore
    /// An answer is held at most this long; past it the client gets the 503.
    package static let timeoutNanos: UInt64 = 30_000_000_000
    /// Why a held answer is refused when the store gave no reason: its write took longer than `timeoutNanos`.
    static let timedOut = "the state file was not written within \(timeoutNanos / 1_000_000_000) s"

    package init(store: StateStore) { self.store = store }

    /// The promise an answer waits on: change `seq` durable, after `inner` (the handler's own
    /// deferral) completes when there is one. Completed with `inner`'s replacement, or `refusal()`
    /// when the file did not take the change.
    static func promise(_ store: StateStore, _ seq: UInt64, after inner: DeferredResponse?,
                                refusal: @escaping @Sendable () -> HTTPResponse) -> DeferredResponse {
        guard let inner else {
            let promise = DeferredResponse(timeoutNanos: timeoutNanos, onTimeout: refusal)
            store.whenDurable(seq) { written in promise.complete(written ? nil : refusal()) }
            return promise
        }
        // Past the inner timeout its own answer (or, with none, the refusal: the change is not known durable).
        let outer = DeferredResponse(timeoutNanos: inner.timeoutNanos &+ timeoutNanos,
                                     onTimeout: { inner.timeoutResponse() ?? refusal() }, onCancel: { inner.cancel() })
        inner.forward { replacement in
            store.whenDurable(seq) { written in outer.complete(written ? replacement : refusal()) }
        }
        return outer
    }

    /// 503 for a change the state file did not take (its system is the held answer's, in its context).
    package static func refusal(_ reason: String) -> HTTPResponse {
        var response = HTTPResponse.jsonError(.serviceUnavailable, "the change could not be saved to the state file")
            .hinted("--state: \(reason). The change is kept in memory and written once the file can be; free disk space or fix the file's directory (GET /__mock/health says degraded meanwhile).")
        response.headers.set("Retry-After", "1")
        return response
    }
}
