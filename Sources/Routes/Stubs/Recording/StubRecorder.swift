#if os(Linux)
import Synchronization
#endif
import HTTPServer

/// WireMock's recorder: its state (`NeverStarted`, `Recording`, `Stopped`), the target while
/// recording, and the proxied exchanges it saw (`ProxyForwarding` hands each one over). Every
/// proxied exchange is kept (up to `logLimit` bytes, oldest dropped first) for
/// `/__admin/recordings/snapshot`, as WireMock's snapshot reads its journal; a recording takes
/// the ones from its start to its stop. Only proxied requests pay for any of it.
package final class StubRecorder: Sendable {
    enum Status: String, Sendable { case neverStarted = "NeverStarted", recording = "Recording", stopped = "Stopped" }

    private struct State: Sendable {
        var status = Status.neverStarted
        var spec: RecordSpec?
        var log: [(sequence: Int, exchange: RecordedExchange)] = []
        var logBytes = 0
        var next = 0
        /// The sequence of the first exchange of the running recording.
        var startedAt = 0
    }

    private let state = Locked(State())
    /// The proxy stage's flag: set only while recording (one atomic load per request otherwise).
    @usableFromInline let recording = LockFreeFlag()
    /// What the log keeps of bodies and fields, in bytes, before it drops its oldest.
    let logLimit: Int
    /// `--record-mappings`: every proxied exchange becomes a persistent mapping as it arrives.
    package let recordEverything: Bool
    /// Where `--record-mappings` sends each exchange (set by the store that owns this recorder).
    let sink = Locked<Boxed<@Sendable (RecordedExchange) -> Void>?>(nil)

    package init(logLimit: Int = 256 * 1024 * 1024, recordEverything: Bool = false) {
        self.logLimit = logLimit
        self.recordEverything = recordEverything
    }

    /// True while a recording runs (inlined into the proxy stage).
    @inlinable var isRecording: Bool { recording.isSet }

    var status: Status { state.withLock { $0.status } }

    /// The target of the running recording.
    var target: Upstream? { state.withLock { $0.status == .recording ? $0.spec?.target : nil } }

    /// Starts a recording; false when one runs already (WireMock then keeps the running one).
    func start(_ spec: RecordSpec) -> Bool {
        let started = state.withLock { s -> Bool in
            guard s.status != .recording else { return false }
            s.status = .recording
            s.spec = spec
            s.startedAt = s.next
            return true
        }
        if started { recording.set(true) }
        return started
    }

    /// Stops the running recording: its spec and exchanges, nil when none runs.
    func stop() -> (spec: RecordSpec, exchanges: [RecordedExchange])? {
        let stopped = state.withLock { s -> (RecordSpec, [RecordedExchange])? in
            guard s.status == .recording, let spec = s.spec else { return nil }
            s.status = .stopped
            let from = s.startedAt
            return (spec, s.log.filter { $0.sequence >= from }.map(\.exchange))
        }
        if stopped != nil { recording.set(false) }
        return stopped
    }

    /// Every proxied exchange still in the log, oldest first.
    var proxied: [RecordedExchange] { state.withLock { $0.log.map(\.exchange) } }

    /// Forgets the log (the journal was cleared).
    package func clearLog() { state.withLock { s in s.log.removeAll(); s.logBytes = 0 } }

    /// A proxied exchange (any proxy: a `proxyBaseUrl` stub, `--proxy-all`, a recording).
    /// Admin paths are never kept.
    func capture(_ exchange: RecordedExchange) {
        if ProxyAll.isAdminPath(exchange.request.path) { return }
        if recordEverything, let sink = sink.withLock({ $0 }) { sink.value(exchange) }
        let size = exchange.body.count + exchange.request.body.count + 64 * (exchange.headers.count + exchange.request.headers.count)
        state.withLock { s in
            s.log.append((s.next, exchange))
            s.next += 1
            s.logBytes += size
            while s.logBytes > logLimit, let first = s.log.first {
                s.logBytes -= first.exchange.body.count + first.exchange.request.body.count
                    + 64 * (first.exchange.headers.count + first.exchange.request.headers.count)
                s.log.removeFirst()
            }
        }
    }
}
