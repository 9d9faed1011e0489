#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 requests to upstreams from one event loop's thread, on that loop's poller: non-blocking
/// sockets, no thread per request. Connections are pooled per upstream (keep-alive), connect and
/// answer deadlines run on the loop's clock, and answers are read with bounds
/// (`UpstreamResponseParser`). Redirects are answers like any other: never followed.
///
/// Confined to its loop's thread: a handler running there finds it as `OutboundClient.current`;
/// the completion runs on that thread too, later (never inside `send`).
package final class OutboundClient: @unchecked Sendable {
    private let poller: any Poller
    package let settings: OutboundSettings
    /// Where proxies log an upstream's failure.
    package let logger: Logger
    @exclusivity(unchecked) private var connections: [Int32: UpstreamConnection] = [:] { didSet { noteActivity() } }
    @exclusivity(unchecked) private var idle: [Upstream: [UpstreamConnection]] = [:]
    /// Upstream names to addresses, looked up off the loop (a slow name server holds no one else).
    private let resolver: UpstreamResolver
    /// Completions due on the next turn: a failure found inside `send` is reported after it returns.
    @exclusivity(unchecked) private var due: [(OutboundExchange, OutboundResult)] = [] { didSet { noteActivity() } }
    /// Requests to start later (webhooks: after the answer, and after their delay).
    @exclusivity(unchecked) private var scheduled: [(at: UInt64, exchange: OutboundExchange)] = [] { didSet { noteActivity() } }
    @exclusivity(unchecked) private var scratchStorage: UnsafeMutableRawBufferPointer?
    /// The read buffer, made at the first upstream read: a server that never proxies never holds it.
    private var scratch: UnsafeMutableRawBufferPointer {
        if let made = scratchStorage { return made }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        scratchStorage = made
        return made
    }
    private let tls: TLSContexts
    #if canImport(Darwin)
    /// https upstreams on Darwin (URLSession); their exchanges wait here by token.
    private let systemHTTPS: SystemHTTPS
    @exclusivity(unchecked) private var systemPending: [Int: OutboundExchange] = [:] { didSet { noteActivity() } }
    @exclusivity(unchecked) private var nextSystemToken = 0
    #endif

    init(poller: any Poller, settings: OutboundSettings, logger: Logger) {
        self.poller = poller
        self.settings = settings
        self.logger = logger
        tls = TLSContexts(settings: settings)
        resolver = UpstreamResolver(lookup: settings.lookup, timeoutNanos: OutboundClient.nanos(settings.connectTimeout)) { [poller] in poller.wake() }
        #if canImport(Darwin)
        // A poller's wake() is safe from any thread: URLSession's queue hands answers back with it.
        systemHTTPS = SystemHTTPS(settings: settings) { [poller] in poller.wake() }
        #endif
    }

    deinit { scratchStorage?.deallocate() }

    // MARK: - The loop thread's client

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        _ = pthread_key_create(&key, nil)
        return key
    }()

    /// The client of the event loop running on this thread; nil off a loop thread.
    package static var current: OutboundClient? {
        guard let p = pthread_getspecific(key) else { return nil }
        return Unmanaged<OutboundClient>.fromOpaque(p).takeUnretainedValue()
    }

    /// The loop installs its client for its thread (it keeps the client alive while installed).
    func install() { _ = pthread_setspecific(OutboundClient.key, Unmanaged.passUnretained(self).toOpaque()) }
    func uninstall() { _ = pthread_setspecific(OutboundClient.key, nil) }

    // MARK: - Sending

    /// Sends `request` and calls `completion` on this thread with the answer or why there is none.
    package func send(_ request: OutboundRequest, completion: @escaping (OutboundResult) -> Void) {
        start(OutboundExchange(request: request, completion: completion))
    }

    /// Sends `request` once `nanos` have passed, and never before the loop's next turn: what a
    /// handler schedules goes out after the answer it is writing.
    package func send(_ request: OutboundRequest, after nanos: UInt64, completion: @escaping (OutboundResult) -> Void) {
        scheduled.append((Sys.monotonicNanos() &+ nanos, OutboundExchange(request: request, completion: completion)))
    }

    private func start(_ exchange: OutboundExchange) {
        let upstream = exchange.request.upstream
        if case .hosts(let allowed) = settings.policy, !allowed.contains(upstream.host) {
            return fail(exchange, OutboundFailure(.notAllowed, "--outbound does not allow \(upstream.host)"))
        }
        // A pooled connection first; one the upstream closed while idle was removed when it said so.
        while var list = idle[upstream], let conn = list.popLast() {
            idle[upstream] = list.isEmpty ? nil : list
            guard connections[conn.fd] === conn else { continue }
            conn.reused = true
            begin(exchange, on: conn)
            return
        }
        guard let addresses = resolver.addresses(for: exchange, now: Sys.monotonicNanos()) else {
            // Looked up off the loop: `tick` goes on with it once the name server answers.
            return noteActivity()
        }
        start(exchange, at: addresses)
    }

    /// The rest of `start` once the upstream's addresses are known.
    private func start(_ exchange: OutboundExchange, at resolved: UpstreamResolver.Addresses) {
        let upstream = exchange.request.upstream
        var addresses = resolved
        if settings.policy == .loopback {
            addresses = addresses.filter(OutboundClient.isLoopback)
            if addresses.isEmpty { return fail(exchange, OutboundFailure(.notAllowed, "--outbound loopback does not allow \(upstream.host)")) }
        }
        guard !addresses.isEmpty else { return fail(exchange, OutboundFailure(.unresolved, "\(upstream.host) does not resolve")) }
        #if canImport(Darwin)
        if upstream.scheme == .https { return sendSystem(exchange) }
        #endif
        connect(exchange, addresses)
    }

    #if canImport(Darwin)
    /// An https upstream on Darwin: URLSession sends it; `tick` hands its answer on.
    private func sendSystem(_ exchange: OutboundExchange) {
        let upstream = exchange.request.upstream
        noteUnverified(upstream, settings.trustPolicy(forHost: upstream.host))
        nextSystemToken &+= 1
        systemPending[nextSystemToken] = exchange
        systemHTTPS.send(exchange.request, token: nextSystemToken)
    }

    /// Hands on the answers URLSession delivered since the last turn.
    private func flushSystem() {
        let arrived = systemHTTPS.inbox.withLock { inbox -> [(token: Int, result: OutboundResult)] in
            defer { inbox = [] }
            return inbox
        }
        for (token, result) in arrived {
            guard let exchange = systemPending.removeValue(forKey: token) else { continue }
            finish(exchange, result)
        }
    }
    #endif

    private func connect(_ exchange: OutboundExchange, _ addresses: [(storage: sockaddr_storage, length: socklen_t)]) {
        var remaining = addresses[...]
        var lastError: Int32 = ECONNREFUSED
        while let address = remaining.popFirst() {
            switch Sys.startConnect(address) {
            case .failed(let e):
                lastError = e
                continue
            case .started(let fd, let inProgress):
                let conn = UpstreamConnection(fd: fd, upstream: exchange.request.upstream, phase: .connecting, fallbacks: Array(remaining))
                conn.exchange = exchange
                connections[fd] = conn
                do {
                    try poller.add(fd, read: false, write: true)
                } catch {
                    drop(conn)
                    return fail(exchange, OutboundFailure(.refused, "cannot watch the upstream socket: \(error)"))
                }
                conn.watchingWrite = true
                conn.deadline = Sys.monotonicNanos() &+ OutboundClient.nanos(settings.connectTimeout)
                if !inProgress { connected(conn) }
                return
            }
        }
        fail(exchange, OutboundFailure(lastError == ETIMEDOUT ? .timedOut : .refused, Sys.errorText(lastError)))
    }

    private func connected(_ conn: UpstreamConnection) {
        guard let exchange = conn.exchange else { return }
        guard conn.upstream.scheme == .https else { return begin(exchange, on: conn) }
        let upstream = conn.upstream
        let policy = settings.trustPolicy(forHost: upstream.host)
        let verify: Bool
        if case .unverified = policy { verify = false } else { verify = true }
        switch tls.session(fd: conn.fd, upstream: upstream, verify: verify) {
        case .failure(let why):
            if settings.notes.first("tls: " + why.reason) { logger.error("https upstream \(upstream): \(why.reason)") }
            return failed(conn, OutboundFailure(.tls, why.reason))
        case .success(let session):
            conn.tls = session
        }
        noteUnverified(upstream, policy)
        conn.phase = .handshaking
        handshake(conn)
    }

    /// Logs once per upstream that its certificate is taken unverified, and which setting says so.
    private func noteUnverified(_ upstream: Upstream, _ policy: ServerTrustPolicy) {
        guard case .unverified(let flag) = policy, settings.notes.first("unverified: " + upstream.description) else { return }
        logger.warning("https upstream \(upstream): its certificate is not verified (\(flag))")
    }

    /// One step of the TLS handshake; the request goes out once it is done.
    private func handshake(_ conn: UpstreamConnection) {
        guard let session = conn.tls, let exchange = conn.exchange else { return }
        switch session.handshake() {
        case .done: begin(exchange, on: conn)
        case .wantRead: watch(conn, write: false)
        case .wantWrite: watch(conn, write: true)
        case .failed(let why): failed(conn, OutboundFailure(.tls, why))
        }
    }

    private func begin(_ exchange: OutboundExchange, on conn: UpstreamConnection) {
        conn.exchange = exchange
        conn.phase = .sending
        conn.output = OutboundRequestEncoder.encode(exchange.request)
        conn.written = 0
        conn.parser = UpstreamResponseParser(maxHeadBytes: settings.maxHeadBytes, maxBodyBytes: settings.maxBodyBytes,
                                             headRequest: exchange.request.method == "HEAD")
        conn.deadline = Sys.monotonicNanos() &+ OutboundClient.nanos(settings.readTimeout)
        write(conn)
    }

    // MARK: - The loop's side

    /// Whether any upstream socket is open, a request scheduled or a completion due: the loop
    /// asks every turn, so it is one stored flag (kept by the three collections' observers), not
    /// three collection checks (callgrind: the checks cost a request of the systems ~50 instructions).
    @exclusivity(unchecked) private(set) var isActive = false

    private func noteActivity() {
        #if canImport(Darwin)
        isActive = !connections.isEmpty || !due.isEmpty || !scheduled.isEmpty || resolver.isWaiting || !systemPending.isEmpty
        #else
        isActive = !connections.isEmpty || !due.isEmpty || !scheduled.isEmpty || resolver.isWaiting
        #endif
    }

    /// Whether `fd` is one of this client's sockets.
    func owns(_ fd: Int32) -> Bool { connections[fd] != nil }

    /// Readiness of one of this client's sockets (ignored for a descriptor it does not hold).
    func handle(_ event: PollEvent) {
        guard let conn = connections[event.fd] else { return }
        switch conn.phase {
        case .connecting:
            let e = Sys.socketError(conn.fd)
            if e != 0 {
                let fallbacks = conn.fallbacks
                drop(conn)
                guard let exchange = conn.exchange else { return }
                conn.exchange = nil
                if !fallbacks.isEmpty { return connect(exchange, fallbacks) }
                return fail(exchange, OutboundFailure(e == ETIMEDOUT ? .timedOut : .refused, Sys.errorText(e)))
            }
            if event.writable || event.readable { connected(conn) }
        case .handshaking:
            handshake(conn)
        case .sending:
            // A TLS write may wait for the upstream's bytes (SSL_ERROR_WANT_READ), so readable retries it.
            if event.writable || (conn.tls != nil && event.readable) { write(conn) }
            if event.readable || event.hangup, connections[conn.fd] === conn { read(conn) }
        case .awaiting, .idle:
            read(conn)
        }
    }

    /// The earliest deadline of any socket (0: none).
    var nextDeadline: UInt64 {
        var earliest: UInt64 = 0
        for conn in connections.values where earliest == 0 || conn.deadline < earliest { earliest = conn.deadline }
        for item in scheduled where earliest == 0 || item.at < earliest { earliest = max(1, item.at) }
        let lookup = resolver.nextDeadline
        if lookup != 0 && (earliest == 0 || lookup < earliest) { earliest = lookup }
        if !due.isEmpty { earliest = 1 }
        return earliest
    }

    /// Times out what is past its deadline and reports completions found inside `send`.
    func tick(now: UInt64) {
        if !scheduled.isEmpty { startScheduled(now: now) }
        if resolver.isWaiting { startResolved(now: now) }
        #if canImport(Darwin)
        if !systemPending.isEmpty { flushSystem() }
        #endif
        // Most turns nothing is due: look before building the list.
        guard connections.values.contains(where: { $0.deadline != 0 && $0.deadline <= now }) else { return flushDue() }
        for conn in Array(connections.values) where conn.deadline != 0 && conn.deadline <= now {
            drop(conn)
            if let exchange = conn.exchange {
                conn.exchange = nil
                let connecting = conn.phase == .connecting || conn.phase == .handshaking
                let what = conn.phase == .connecting ? "no connection" : conn.phase == .handshaking ? "no TLS handshake" : "no complete answer"
                let seconds = connecting ? settings.connectTimeout : settings.readTimeout
                finish(exchange, .failure(OutboundFailure(.timedOut, "\(what) within \(OutboundClient.secondsText(seconds))")))
            }
        }
        flushDue()
    }

    private func startScheduled(now: UInt64) {
        var ready: [OutboundExchange] = []
        scheduled.removeAll { item in
            guard item.at <= now else { return false }
            ready.append(item.exchange)
            return true
        }
        for exchange in ready { start(exchange) }
    }

    /// Reports completions held back by `send` (the loop calls this each turn while active).
    func flushDue() {
        guard !due.isEmpty else { return }
        let batch = due
        due = []
        for (exchange, result) in batch { exchange.completion(result) }
    }

    /// Closes every socket; waiting exchanges get a failure.
    /// Goes on with the requests whose upstream's lookup answered, and fails those whose lookup
    /// took longer than the connect timeout.
    private func startResolved(now: UInt64) {
        for (exchange, addresses) in resolver.collect(now: now) {
            guard let addresses else {
                let failure = OutboundFailure(.timedOut, "no address for \(exchange.request.upstream.host) within \(OutboundClient.secondsText(settings.connectTimeout))")
                fail(exchange, failure)
                continue
            }
            start(exchange, at: addresses)
        }
        noteActivity()
    }

    func closeAll() {
        for exchange in resolver.takeWaiting() { exchange.completion(.failure(OutboundFailure(.reset, "the server is stopping"))) }
        #if canImport(Darwin)
        systemHTTPS.invalidate()
        for exchange in systemPending.values { exchange.completion(.failure(OutboundFailure(.reset, "the server is stopping"))) }
        systemPending = [:]
        #endif
        for item in scheduled { item.exchange.completion(.failure(OutboundFailure(.reset, "the server is stopping"))) }
        scheduled = []
        for conn in Array(connections.values) {
            drop(conn)
            if let exchange = conn.exchange {
                conn.exchange = nil
                exchange.completion(.failure(OutboundFailure(.reset, "the server is stopping")))
            }
        }
        flushDue()
        // After every TLS session is freed (drop), on this loop's thread.
        tls.close()
    }

    // MARK: - Reading and writing

    private func write(_ conn: UpstreamConnection) {
        while conn.written < conn.output.count {
            if let session = conn.tls {
                switch conn.output.withUnsafeBytes({ session.write(UnsafeRawBufferPointer(rebasing: $0[conn.written...])) }) {
                case .done(let n) where n > 0: conn.written += n; continue
                case .done: return failed(conn, OutboundFailure(.reset, "the upstream stopped reading"))
                case .wantWrite: return watch(conn, write: true)
                case .wantRead: return watch(conn, write: false)
                case .failed(let why): return failed(conn, OutboundFailure(.reset, why))
                }
            }
            let n = conn.output.withUnsafeBytes { Sys.send(conn.fd, UnsafeRawBufferPointer(rebasing: $0[conn.written...])) }
            if n > 0 { conn.written += n; continue }
            if n < 0 && Sys.isWouldBlock(Sys.lastError) {
                watch(conn, write: true)
                return
            }
            return failed(conn, OutboundFailure(.reset, n < 0 ? Sys.errorText(Sys.lastError) : "the upstream stopped reading"))
        }
        conn.output = []
        conn.phase = .awaiting
        watch(conn, write: false)
    }

    private func read(_ conn: UpstreamConnection) {
        while connections[conn.fd] === conn {
            let n: Int
            if let session = conn.tls {
                switch session.read(into: scratch) {
                case .done(let count): n = count
                case .wantRead:
                    if conn.watchingWrite && conn.phase != .sending { watch(conn, write: false) }
                    return
                case .wantWrite: return watch(conn, write: true)
                case .failed(let why): return failed(conn, OutboundFailure(.reset, why))
                }
            } else {
                n = Sys.recv(conn.fd, into: scratch)
            }
            if n < 0 {
                let e = Sys.lastError
                if Sys.isWouldBlock(e) { return }
                return failed(conn, OutboundFailure(.reset, Sys.errorText(e)))
            }
            guard conn.phase != .idle, var parser = conn.parser else {
                // The upstream closed an idle connection (or sent what nobody asked for): let it go.
                drop(conn)
                return
            }
            let event = n == 0 ? parser.receiveEOF() : parser.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            conn.parser = parser
            switch event {
            case .needMore:
                if n == 0 { return failed(conn, OutboundFailure(.reset, "the upstream closed the connection")) }
                continue
            case .failure(let reason):
                let kind: OutboundFailure.Kind = n == 0 ? .reset : .malformed
                return failed(conn, OutboundFailure(kind, reason))
            case .response(let response, let reusable):
                let exchange = conn.exchange
                conn.exchange = nil
                conn.parser = nil
                if reusable && n != 0 { park(conn) } else { drop(conn) }
                if let exchange { finish(exchange, .success(response)) }
                return
            }
        }
    }

    /// A failure of the socket: a pooled connection closed under a request is retried once on a
    /// fresh one (nothing of an answer arrived, so the request was not acted on, as far as HTTP says).
    private func failed(_ conn: UpstreamConnection, _ failure: OutboundFailure) {
        drop(conn)
        guard let exchange = conn.exchange else { return }
        conn.exchange = nil
        if conn.reused && !exchange.retried && !(conn.parser?.started ?? false) {
            exchange.retried = true
            return start(exchange)
        }
        finish(exchange, .failure(failure))
    }

    private func park(_ conn: UpstreamConnection) {
        var list = idle[conn.upstream] ?? []
        guard list.count < settings.maxIdlePerUpstream else { return drop(conn) }
        conn.phase = .idle
        conn.deadline = Sys.monotonicNanos() &+ OutboundClient.nanos(settings.idleSeconds)
        list.append(conn)
        idle[conn.upstream] = list
        watch(conn, write: false)
    }

    private func watch(_ conn: UpstreamConnection, write: Bool) {
        // Reading is always watched after the connect: an upstream's close or early answer shows.
        do {
            try poller.modify(conn.fd, read: true, write: write)
            conn.watchingWrite = write
        } catch {
            failed(conn, OutboundFailure(.reset, "cannot watch the upstream socket: \(error)"))
        }
    }

    private func drop(_ conn: UpstreamConnection) {
        guard connections[conn.fd] === conn else { return }
        connections[conn.fd] = nil
        if conn.phase == .idle, var list = idle[conn.upstream] {
            list.removeAll { $0 === conn }
            idle[conn.upstream] = list.isEmpty ? nil : list
        }
        poller.remove(conn.fd)
        // The TLS session may write close_notify: before the descriptor can be reused.
        conn.tls = nil
        Sys.close(conn.fd)
    }

    private func fail(_ exchange: OutboundExchange, _ failure: OutboundFailure) {
        due.append((exchange, .failure(failure)))
    }

    private func finish(_ exchange: OutboundExchange, _ result: OutboundResult) {
        exchange.completion(result)
    }

    // MARK: - Helpers

    package static func nanos(_ seconds: Double) -> UInt64 {
        let s = seconds.isFinite ? min(max(seconds, 0.001), 31_536_000) : 31_536_000
        return UInt64(s * 1e9)
    }

    static func secondsText(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : "\(seconds) s"
    }

    /// 127.0.0.0/8, ::1 and IPv4-mapped 127.x.
    static func isLoopback(_ address: (storage: sockaddr_storage, length: socklen_t)) -> Bool {
        var storage = address.storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw in
                raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr) ?? 4, as: UInt8.self) == 127
            }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { raw -> Bool in
                let base = MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr) ?? 8
                let bytes = (0..<16).map { raw[base + $0] }
                if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
                return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            }
        default:
            return false
        }
    }
}
