/// A response completed later, from any thread: a handler returns `context.deferring(response, until: promise)`
/// and the connection holds that answer's place in the pipeline (later pipelined answers wait
/// behind it) until `complete` is called, the timeout passes, or the client goes away. No loop
/// thread waits: completion posts to the connection's loop and wakes it.
///
/// - `complete()` sends the response the handler returned; `complete(other)` sends `other`.
/// - At the timeout (clamped by the server's `maxDeferredSeconds`) `onTimeout` builds the answer
///   on the loop thread; without it the handler's response is sent.
/// - If the connection closes first, `onCancel` runs (on the loop thread), once; a later
///   `complete` returns false.
@usableFromInline package final class DeferredResponse: Sendable {
    /// Where a completion is announced: the loop's mailbox, the connection and its slot.
    struct Binding: Sendable {
        var mailbox: LoopMailbox
        var id: ConnectionID
        var token: UInt64
    }

    /// What the loop finds when it looks at the promise.
    enum Outcome {
        case pending
        /// Completed: the replacement response, or nil for the handler's own.
        case completed(HTTPResponse?)
        case timedOut
    }

    private enum State {
        case waiting(Binding?)
        /// A wrapper holds the answer further (`forward`): the completion goes to it.
        case forwarded(@Sendable (HTTPResponse?) -> Void)
        case completed(HTTPResponse?)
        case finished
    }

    /// Nanoseconds the answer may be held at most (the server may clamp it further).
    package let timeoutNanos: UInt64
    private let onTimeout: (@Sendable () -> HTTPResponse)?
    private let onCancel: (@Sendable () -> Void)?
    private let state = Locked(State.waiting(nil))

    package init(timeoutNanos: UInt64, onTimeout: (@Sendable () -> HTTPResponse)? = nil,
                onCancel: (@Sendable () -> Void)? = nil) {
        self.timeoutNanos = timeoutNanos
        self.onTimeout = onTimeout
        self.onCancel = onCancel
    }

    /// Releases the held answer: `response`, or the handler's own when nil. Any thread; returns
    /// false when it was already completed, timed out or cancelled.
    @discardableResult
    package func complete(_ response: HTTPResponse? = nil) -> Bool {
        var forward: (@Sendable (HTTPResponse?) -> Void)?
        let binding = state.withLock { s -> Binding?? in
            if case .forwarded(let body) = s {
                forward = body
                s = .finished
                return .some(nil)
            }
            guard case .waiting(let binding) = s else { return .none }
            s = .completed(response)
            return .some(binding)
        }
        guard let binding else { return false }
        if let forward { forward(response); return true }
        // Unbound: the loop finds the result when it binds (the handler completed before returning).
        if let binding { binding.mailbox.post(binding.id, .deferredReady(binding.token)) }
        return true
    }

    /// True until completed, timed out or cancelled.
    package var isPending: Bool {
        state.withLock { s in
            switch s {
            case .waiting, .forwarded: return true
            case .completed, .finished: return false
            }
        }
    }

    /// Hands the completion to `body` (at once when it came already) instead of a connection:
    /// for a wrapper that holds the answer further and returns its own promise in this one's
    /// place (the durability gate). The wrapper then owns the timeout (`timeoutResponse`) and
    /// passes a cancel on (`cancel`). Call it before the promise reaches the server, once.
    package func forward(_ body: @escaping @Sendable (HTTPResponse?) -> Void) {
        let done = state.withLock { s -> HTTPResponse?? in
            switch s {
            case .waiting:
                s = .forwarded(body)
                return .none
            case .completed(let response):
                s = .finished
                return .some(response)
            case .forwarded, .finished:
                return .none
            }
        }
        if let done { body(done) }
    }

    // MARK: - The loop's side

    /// Attaches the promise to its slot; a completion that came first is returned at once.
    func bind(_ binding: Binding) -> Outcome {
        state.withLock { s in
            switch s {
            case .waiting:
                s = .waiting(binding)
                return .pending
            case .completed(let response):
                s = .finished
                return .completed(response)
            case .forwarded, .finished:
                return .timedOut
            }
        }
    }

    /// Takes a completion; with `expiring`, a promise still waiting times out instead.
    func take(expiring: Bool) -> Outcome {
        state.withLock { s in
            switch s {
            case .completed(let response):
                s = .finished
                return .completed(response)
            case .waiting:
                guard expiring else { return .pending }
                s = .finished
                return .timedOut
            case .forwarded, .finished:
                return .timedOut
            }
        }
    }

    /// The answer to send at the timeout (nil: the handler's own), built on the loop thread.
    package func timeoutResponse() -> HTTPResponse? { onTimeout?() }

    /// The answer will not be sent: its connection went away (or the wrapper holding it was
    /// cancelled). Runs `onCancel` once if the promise was still pending.
    package func cancel() {
        let wasWaiting = state.withLock { s -> Bool in
            defer { s = .finished }
            switch s {
            case .waiting, .forwarded: return true
            case .completed, .finished: return false
            }
        }
        if wasWaiting { onCancel?() }
    }
}
