import HTTPServer

/// Under `--state`, a request that changed state is answered only once its change is in the
/// state file: the answer is deferred (no loop thread waits) until the store's writer has
/// written it, and several requests share one write. A change that cannot be written is
/// answered 503 with a hint instead (it stays in memory and reaches the file once it can).
public final class DurabilityGate: Sendable {
    private let store: StateStore
    /// An answer is held at most this long; past it the client gets the 503.
    package static let timeoutNanos: UInt64 = 30_000_000_000

    public init(store: StateStore) { self.store = store }

    /// `inner` (the control plane's middleware), with every changing request's answer held
    /// until its change is durable.
    public func middleware(around inner: Middleware?) -> Middleware {
        { [store] request, next in
            ThreadMark.clear()
            let response = inner.map { $0(request, next) } ?? next(request)
            let seq = ThreadMark.value
            // Nothing changed, or the answer already waits for something else (a long poll changes nothing).
            guard seq != 0, response.delivery.deferred == nil else { return response }
            let system = response.system
            let refusal: @Sendable () -> HTTPResponse = {
                DurabilityGate.refusal(store.failure ?? "the state file was not written within \(DurabilityGate.timeoutNanos / 1_000_000_000) s", system: system)
            }
            let promise = DeferredResponse(timeoutNanos: DurabilityGate.timeoutNanos, onTimeout: refusal)
            store.whenDurable(seq) { written in promise.complete(written ? nil : refusal()) }
            return response.deferred(promise)
        }
    }

    /// `endpoint`, with every reply to a message that changed state held (in order: later replies
    /// wait behind it) until its change is durable. A change the file did not take is answered
    /// `refusal(message, reason)` instead, as one text message.
    public func webSocketEndpoint(_ endpoint: WebSocketEndpoint,
                                  refusal: @escaping @Sendable (WebSocketMessage, String) -> String) -> WebSocketEndpoint {
        var wrapped = endpoint
        let onMessage = endpoint.onMessage
        wrapped.onMessage = { [store] message, connection in
            ThreadMark.clear()
            var reply = onMessage(message, connection)
            let seq = ThreadMark.value
            guard seq != 0, reply.deferred == nil else { return reply }
            let refused: @Sendable () -> HTTPResponse = {
                HTTPResponse.text(.serviceUnavailable, refusal(message, store.failure ?? "the state file was not written within \(DurabilityGate.timeoutNanos / 1_000_000_000) s"))
            }
            let promise = DeferredResponse(timeoutNanos: DurabilityGate.timeoutNanos, onTimeout: refused)
            store.whenDurable(seq) { written in promise.complete(written ? nil : refused()) }
            reply.deferred = promise
            return reply
        }
        return wrapped
    }

    /// 503 for a change the state file did not take.
    package static func refusal(_ reason: String, system: String?) -> HTTPResponse {
        var response = HTTPResponse.jsonError(.serviceUnavailable, "the change could not be saved to the state file")
            .hinted("--state: \(reason). The change is kept in memory and written once the file can be; free disk space or fix the file's directory (GET /__mock/health says degraded meanwhile).")
        response.system = system
        response.headers.set("Retry-After", "1")
        return response
    }
}
