#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// One epoll-driven thread serving many connections; its own listening socket (SO_REUSEPORT)
/// lets the kernel spread new clients across loops. All its state is confined to its thread.
final class EventLoop: @unchecked Sendable {
    let id: Int
    /// The port this loop's listener is bound to; requests carry it as `localPort`.
    let port: Int
    private let epfd: Int32
    private let wakeFD: Int32
    private var listenFD: Int32
    private let shared: ServerShared
    private var connections: [Connection?] = []
    private var openCount = 0
    private let scratch: UnsafeMutableRawBufferPointer
    private var wsEvents: [WebSocketSessionEvent] = []
    private var now: UInt64 = 0
    private var dateSecond = -1
    private var date: [UInt8] = []
    private var draining = false
    private var drainDeadline: UInt64 = 0
    private var spareFD: Int32
    private var lastAcceptWarning: UInt64 = 0

    private static let readSize = 64 * 1024
    /// Past this much unwritten output, a connection stops reading until the client catches up.
    private static let outputHighWater = 1024 * 1024

    init(id: Int, listenFD: Int32, port: Int, shared: ServerShared) throws {
        self.id = id
        self.port = port
        self.listenFD = listenFD
        self.shared = shared
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epfd >= 0 else { throw ServerError.system(call: "epoll_create1", errno: errno) }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw ServerError.system(call: "eventfd", errno: errno) }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.readSize, alignment: 16)
        try register(listenFD, events: EPOLLIN.rawValue)
        try register(wakeFD, events: EPOLLIN.rawValue)
    }

    deinit {
        scratch.deallocate()
        close(epfd)
        close(wakeFD)
        if spareFD >= 0 { close(spareFD) }
    }

    /// Called from any thread: makes the loop look at the server's stop flag.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: - Loop

    func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        let tickMillis = shared.tickMillis
        var nextSweep: UInt64 = 0
        updateClock()
        while true {
            let n = events.withUnsafeMutableBufferPointer { epoll_wait(epfd, $0.baseAddress, Int32($0.count), tickMillis) }
            updateClock()
            if n < 0 && errno != EINTR { shared.logger.error("epoll_wait: \(Socket.errorText(errno))"); break }
            for i in 0..<max(0, Int(n)) {
                let ev = events[i]
                let fd = Int32(truncatingIfNeeded: ev.data.u64)
                if fd == listenFD && listenFD >= 0 {
                    acceptConnections()
                } else if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    if shared.isStopping && !draining { beginDrain() }
                } else if let conn = connection(fd) {
                    if ev.events & EPOLLOUT.rawValue != 0 { flush(conn) }
                    if ev.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0, connection(fd) === conn {
                        readable(conn)
                    }
                }
            }
            if now >= nextSweep {
                sweep()
                nextSweep = now + UInt64(tickMillis) * 1_000_000
            }
            if draining && (openCount == 0 || now >= drainDeadline) { break }
        }
        for case let conn? in connections { closeConnection(conn) }
        if listenFD >= 0 { close(listenFD); listenFD = -1 }
    }

    private func updateClock() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        now = UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        if Int(wall.tv_sec) != dateSecond {
            dateSecond = Int(wall.tv_sec)
            date = HTTPResponseEncoder.httpDate(epochSeconds: dateSecond)
        }
    }

    // MARK: - Accepting

    private func acceptConnections() {
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listenFD, $0, &len)
                }
            }
            if fd < 0 {
                let e = errno
                if e == EAGAIN || e == EWOULDBLOCK { return }
                if e == EINTR || e == ECONNABORTED { continue }
                if e == EMFILE || e == ENFILE {
                    // Out of descriptors: take the pending client with the spare one and hang up, so the
                    // level-triggered listener does not spin; the client sees a closed connection.
                    warnRateLimited("out of file descriptors (\(Socket.errorText(e))); refusing a connection — raise `ulimit -n` or lower --max-connections")
                    if spareFD >= 0 { close(spareFD) }
                    let c = accept(listenFD, nil, nil)
                    if c >= 0 { close(c) }
                    spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    return
                }
                shared.logger.error("accept: \(Socket.errorText(e))")
                return
            }
            guard shared.reserveConnection() else {
                warnRateLimited("connection limit (\(shared.configuration.maxConnections)) reached; answering 503 — raise it with --max-connections")
                var refusal = HTTPResponse.jsonError(.serviceUnavailable, "Too many open connections")
                refusal.headers.set("Retry-After", "1")
                var bytes: [UInt8] = []
                HTTPResponseEncoder.encode(refusal, omitBody: false, keepAlive: false, requestVersion: .http1_1, date: date, into: &bytes)
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            Socket.setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            Socket.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            let conn = Connection(fd: fd, remoteAddress: Socket.address(of: storage).host, localPort: port, limits: shared.limits, now: now)
            store(conn)
            do {
                try register(fd, events: EPOLLIN.rawValue)
            } catch {
                closeConnection(conn)
            }
        }
    }

    private func warnRateLimited(_ message: String) {
        if now - lastAcceptWarning > 1_000_000_000 || lastAcceptWarning == 0 {
            lastAcceptWarning = now
            shared.logger.warning(message)
        }
    }

    // MARK: - Reading

    private func readable(_ conn: Connection) {
        if conn.readPaused { return }
        let n = recv(conn.fd, scratch.baseAddress, scratch.count, 0)
        if n == 0 {
            // The peer closed its side; whatever it sent has been answered or cannot be.
            if !conn.lingering && conn.isMidRequest && !conn.isWebSocket {
                shared.logger.debug("client \(conn.remoteAddress) went away mid-request")
            }
            closeConnection(conn)
            return
        }
        if n < 0 {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return }
            closeConnection(conn)
            return
        }
        conn.lastActivity = now
        if conn.lingering { return }  // drained and dropped
        let bytes = UnsafeRawBufferPointer(rebasing: scratch[0..<n])
        if conn.isWebSocket {
            feedWebSocket(conn, bytes)
        } else if conn.inbound.isEmpty {
            let used = processHTTP(conn, bytes)
            if used < bytes.count && !conn.closeAfterWrite {
                conn.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
            }
        } else {
            conn.inbound.append(contentsOf: bytes)
            drainInbound(conn)
        }
        afterInput(conn)
    }

    /// Parses what `inbound` holds (after a read, or when output backpressure lifts).
    private func drainInbound(_ conn: Connection) {
        let used = conn.inbound.withUnsafeBytes { processHTTP(conn, $0) }
        if conn.closeAfterWrite {
            conn.inbound.removeAll()
        } else if used > 0 {
            conn.inbound.removeFirst(used)
        }
    }

    private func afterInput(_ conn: Connection) {
        if conn.parser.continueRequested {
            conn.parser.acknowledgeContinue()
            conn.outbound.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
        }
        if conn.isWebSocket {
            conn.requestStartedAt = 0
        } else if conn.isMidRequest {
            if conn.requestStartedAt == 0 { conn.requestStartedAt = now }
        } else {
            conn.requestStartedAt = 0
        }
        if conn.pendingOutput > 0 || conn.closeAfterWrite { flush(conn) }
    }

    /// Answers every complete request in `bytes`; returns how many bytes were consumed.
    private func processHTTP(_ conn: Connection, _ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while !conn.closeAfterWrite && !conn.isWebSocket {
            if conn.pendingOutput > EventLoop.outputHighWater { pauseReading(conn); break }
            switch conn.parser.next(bytes, offset: &offset) {
            case .needMore:
                return offset
            case .failure(let failure):
                answerAndClose(conn, failure.status, failure.reason)
                return bytes.count
            case .request(let request):
                handle(request, on: conn)
                if conn.isWebSocket && offset < bytes.count {
                    // Frames sent right behind the handshake belong to the WebSocket.
                    feedWebSocket(conn, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    return bytes.count
                }
            }
        }
        return offset
    }

    private func handle(_ request: HTTPRequest, on conn: Connection) {
        if WebSocketHandshake.isUpgradeRequest(request) {
            var routed = request
            if case .webSocket(let handler) = shared.responder.router.match(&routed, isUpgrade: true) {
                let (response, accepted) = WebSocketHandshake.response(for: routed)
                HTTPResponseEncoder.encode(response, omitBody: false, keepAlive: accepted, requestVersion: request.version, date: date, into: &conn.outbound)
                if accepted {
                    conn.webSocket = WebSocketSession(maxMessageBytes: shared.configuration.maxWebSocketMessageBytes)
                    conn.webSocketHandler = handler
                    shared.logger.debug("WebSocket \(request.path) opened by \(conn.remoteAddress)")
                } else {
                    conn.closeAfterWrite = true
                    shared.logger.info("\(response.status.code) to \(conn.remoteAddress): rejected WebSocket handshake on \(request.path)")
                }
                return
            }
        }
        let response = shared.responder.respond(to: request)
        let keepAlive = request.wantsKeepAlive && !draining
        HTTPResponseEncoder.encode(response, omitBody: request.method == .head, keepAlive: keepAlive,
                                   requestVersion: request.version, date: date, into: &conn.outbound)
        if !keepAlive { conn.closeAfterWrite = true }
        if shared.logger.isEnabled(.debug) {
            // The path only: query strings may carry passwords (musbooking accepts them there).
            shared.logger.debug("\(request.method) \(request.path) → \(response.status.code) (\(response.body.count) bytes) for \(conn.remoteAddress)")
        }
    }

    private func feedWebSocket(_ conn: Connection, _ bytes: UnsafeRawBufferPointer) {
        guard conn.webSocket != nil, let handler = conn.webSocketHandler else { return }
        wsEvents.removeAll(keepingCapacity: true)
        // In place: a copy of the session would share, then copy, its partial-message buffer on every read.
        conn.webSocket?.receive(bytes, into: &wsEvents)
        for event in wsEvents {
            switch event {
            case .message(let message):
                for reply in handler(message) { WebSocketSession.encode(reply, into: &conn.outbound) }
            case .send(let frame):
                conn.outbound.append(contentsOf: frame)
            case .closeConnection:
                if let failure = conn.webSocket?.failure {
                    shared.logger.info("WebSocket close \(failure.code) to \(conn.remoteAddress): \(failure.reason)")
                }
                conn.closeAfterWrite = true
                return
            }
        }
    }

    /// Answers a request the server refuses (a bound, a malformed request) with a log line, then closes.
    private func answerAndClose(_ conn: Connection, _ status: HTTPStatus, _ reason: String) {
        shared.logger.info("\(status.code) to \(conn.remoteAddress): \(reason)")
        HTTPResponseEncoder.encode(.jsonError(status, reason), omitBody: false, keepAlive: false, requestVersion: .http1_1,
                                   date: date, into: &conn.outbound)
        conn.closeAfterWrite = true
    }

    // MARK: - Writing

    private func flush(_ conn: Connection) {
        while conn.written < conn.outbound.count {
            let n = conn.outbound.withUnsafeBytes {
                send(conn.fd, $0.baseAddress.map { $0 + conn.written }, $0.count - conn.written, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                conn.written += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if !conn.wantsWrite { conn.wantsWrite = true; updateInterest(conn) }
                return
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                closeConnection(conn)
                return
            }
        }
        if conn.outbound.capacity > 256 * 1024 { conn.outbound = [] } else { conn.outbound.removeAll(keepingCapacity: true) }
        conn.written = 0
        if conn.wantsWrite { conn.wantsWrite = false; updateInterest(conn) }
        if conn.closeAfterWrite {
            beginLingeringClose(conn)
        } else if conn.readPaused {
            // Output drained: answer the requests held back, then read again.
            conn.readPaused = false
            updateInterest(conn)
            if !conn.inbound.isEmpty { drainInbound(conn); afterInput(conn) }
        }
    }

    private func pauseReading(_ conn: Connection) {
        guard !conn.readPaused else { return }
        conn.readPaused = true
        conn.wantsWrite = true
        updateInterest(conn)
    }

    /// Half-closes and drains the peer briefly, so a client still sending (a body we refused)
    /// reads our answer instead of a reset.
    private func beginLingeringClose(_ conn: Connection) {
        guard !conn.lingering else { return }
        conn.lingering = true
        // While stopping, a peer that will not close is not waited for long.
        conn.lingerDeadline = now + (draining ? 200_000_000 : 2_000_000_000)
        shutdown(conn.fd, Int32(SHUT_WR))
    }

    // MARK: - Timers and shutdown

    private func sweep() {
        let config = shared.configuration
        let headerLimit = UInt64(config.headerTimeout * 1e9)
        let idleLimit = UInt64(config.idleTimeout * 1e9)
        var expired: [Connection] = []
        var timedOut: [Connection] = []
        for case let conn? in connections {
            if conn.lingering {
                if now >= conn.lingerDeadline { expired.append(conn) }
            } else if conn.isWebSocket {
                continue
            } else if conn.requestStartedAt != 0 {
                if now - conn.requestStartedAt > headerLimit { timedOut.append(conn) }
            } else if conn.pendingOutput == 0 && now - conn.lastActivity > idleLimit {
                expired.append(conn)
            }
        }
        for conn in expired { closeConnection(conn) }
        for conn in timedOut {
            conn.inbound.removeAll()
            answerAndClose(conn, .requestTimeout, "request not complete within \(config.headerTimeout) seconds")
            conn.requestStartedAt = 0
            flush(conn)
        }
    }

    private func beginDrain() {
        draining = true
        drainDeadline = now + UInt64(shared.configuration.shutdownGrace * 1e9)
        if listenFD >= 0 {
            _ = epoll_ctl(epfd, EPOLL_CTL_DEL, listenFD, nil)
            close(listenFD)
            listenFD = -1
        }
        for case let conn? in connections {
            if conn.isWebSocket {
                if let frame = conn.webSocket?.initiateClose(code: 1001, reason: "server shutting down") {
                    conn.outbound.append(contentsOf: frame)
                }
                conn.closeAfterWrite = true
                flush(conn)
            } else if !conn.isMidRequest && conn.pendingOutput == 0 {
                closeConnection(conn)
            }
            // Others finish the request in flight; its response carries `Connection: close`.
        }
    }

    // MARK: - Bookkeeping

    private func connection(_ fd: Int32) -> Connection? {
        let i = Int(fd)
        return i >= 0 && i < connections.count ? connections[i] : nil
    }

    private func store(_ conn: Connection) {
        let i = Int(conn.fd)
        if i >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(i + 1 - connections.count, connections.count)))
        }
        connections[i] = conn
        openCount += 1
    }

    private func closeConnection(_ conn: Connection) {
        let i = Int(conn.fd)
        guard i >= 0, i < connections.count, connections[i] === conn else { return }
        connections[i] = nil
        openCount -= 1
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, conn.fd, nil)
        close(conn.fd)
        shared.releaseConnection()
    }

    private func register(_ fd: Int32, events: UInt32) throws {
        var ev = epoll_event()
        ev.events = events
        ev.data.u64 = UInt64(UInt32(bitPattern: fd))
        guard epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) == 0 else { throw ServerError.system(call: "epoll_ctl", errno: errno) }
    }

    private func updateInterest(_ conn: Connection) {
        var ev = epoll_event()
        ev.events = (conn.readPaused ? 0 : EPOLLIN.rawValue) | (conn.wantsWrite ? EPOLLOUT.rawValue : 0)
        ev.data.u64 = UInt64(UInt32(bitPattern: conn.fd))
        _ = epoll_ctl(epfd, EPOLL_CTL_MOD, conn.fd, &ev)
    }
}
