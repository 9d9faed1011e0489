#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// One thread serving many connections through a `Poller`. It owns the descriptors, the poller
/// and the timers, and performs what each connection's `ConnectionMachine` asks for; every
/// system call goes through `Sys`. State is confined to the loop's thread, except the hand-off
/// queue and the mailbox, which other threads fill under a lock and then `wake()` the loop.
final class EventLoop: @unchecked Sendable {
    let id: Int
    /// The port the server is bound to; request contexts carry it as `localPort`.
    let port: Int
    // Loop state is touched only on the loop's thread: no dynamic exclusivity checks (see ConnectionMachine).
    private let poller: any Poller
    /// This loop's listeners (one per address: `localhost` has two), or none (stopped, or a loop
    /// fed by another loop's hand-off).
    @exclusivity(unchecked) private var listenFDs: [Int32]
    /// `listenFDs.first` (-1 when none) and whether it has more: telling a listener's event from a
    /// connection's costs a compare per event, not an array walk.
    @exclusivity(unchecked) private var firstListenFD: Int32 = -1
    @exclusivity(unchecked) private var moreListeners = false
    private let shared: ServerShared
    private let env: ConnectionEnvironment
    let mailbox: LoopMailbox
    /// Requests to upstreams (proxying) on this loop's poller; idle unless a handler sends one.
    private let outbound: OutboundClient
    @exclusivity(unchecked) private var connections: [Connection?] = []
    @exclusivity(unchecked) private var openCount = 0
    @exclusivity(unchecked) private var serial: UInt64 = 0
    private let scratch: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var dateSecond = -1
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var drainDeadline: UInt64 = 0
    @exclusivity(unchecked) private var spareFD: Int32
    @exclusivity(unchecked) private var lastAcceptWarning: UInt64 = 0
    /// While out of descriptors the listener is not watched until this time (0: watched).
    @exclusivity(unchecked) private var listenerPausedUntil: UInt64 = 0
    /// Release times of delayed answers, unordered (few at a time).
    @exclusivity(unchecked) private var timers: [(at: UInt64, id: ConnectionID)] = []
    @exclusivity(unchecked) private var publishedPeak = 0
    /// Accepted sockets handed over by the accepting loop (single-listener mode).
    private let handoff = Locked<[(fd: Int32, peer: String)]>([])
    /// The loops this one spreads its accepted sockets over (itself included); empty: keeps them.
    @exclusivity(unchecked) private var targets: [EventLoop] = []
    @exclusivity(unchecked) private var nextTarget = 0
    /// Every loop of the server (woken when a listener closes, so they can finish draining).
    @exclusivity(unchecked) private var peers: [EventLoop] = []

    private static let readSize = 64 * 1024
    private static let outOfDescriptorsBackoff: UInt64 = 100_000_000
    private static let keepAliveIdleSeconds: Int32 = 60
    private static let releaseThreshold = 4 * 1024 * 1024

    init(id: Int, listenFDs: [Int32], port: Int, shared: ServerShared) throws {
        self.id = id
        self.port = port
        self.listenFDs = listenFDs
        firstListenFD = listenFDs.first ?? -1
        moreListeners = listenFDs.count > 1
        self.shared = shared
        let poller = try shared.configuration.poller.make()
        self.poller = poller
        mailbox = LoopMailbox(wake: { poller.wake() })
        env = ConnectionEnvironment(responder: shared.currentResponder, logger: shared.logger, settings: shared.settings, mailbox: mailbox,
                                   webSocketSlots: shared.webSocketSlots, pushBudget: shared.pushBudget)
        outbound = OutboundClient(poller: poller, settings: shared.configuration.outbound, logger: shared.logger)
        spareFD = Sys.openSpare()
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: EventLoop.readSize, alignment: 16)
        for fd in listenFDs { try poller.add(fd, read: true, write: false) }
    }

    deinit {
        scratch.deallocate()
        if spareFD >= 0 { Sys.close(spareFD) }
    }

    /// Introduces the server's loops; with `distribute`, this loop accepts for all of them
    /// (single-listener mode). Call before `run`.
    func join(_ loops: [EventLoop], distribute: Bool) {
        peers = loops
        targets = distribute ? loops : []
    }

    /// Called from any thread: makes the loop look at the stop flag, its mailbox and hand-offs.
    func wake() { poller.wake() }

    /// Called from the accepting loop's thread: adopt this accepted socket.
    func handOff(fd: Int32, peer: String) {
        handoff.withLock { $0.append((fd, peer)) }
        poller.wake()
    }

    // MARK: - Loop

    func run() {
        var events: [PollEvent] = []
        var nextSweep: UInt64 = 0
        updateClock()
        outbound.install()
        while true {
            let n: Int
            do {
                n = try poller.wait(timeoutMillis: waitMillis(until: outbound.isActive ? outboundDeadline(before: nextSweep) : nextSweep), into: &events)
            } catch {
                shared.logger.error("event loop \(id): \(error)")
                break
            }
            updateClock()
            // Before this batch's bytes: a request that completes after `shutdown()` returned is
            // answered with `Connection: close` (deciding after the batch answered it keep-alive).
            if !draining && shared.isStopping { beginDrain() }
            for i in 0..<n {
                let event = events[i]
                if isListener(event.fd) {
                    acceptConnections(from: event.fd)
                } else if let conn = connection(event.fd) {
                    if event.writable {
                        conn.writeBlocked = false
                        reconcile(conn)
                    }
                    if event.readable || event.hangup, connection(event.fd) === conn {
                        // A hang-up is reported even while reading is paused: nothing can be delivered, so close.
                        if event.hangup && !conn.machine.wantsRead { closeConnection(conn) } else { _ = readable(conn) }
                    }
                } else {
                    outbound.handle(event)
                }
            }
            takeHandoffs()
            // Before the mailbox: an upstream's answer completes its deferred answer, which posts there.
            if outbound.isActive { outbound.tick(now: env.now) }
            runCommands()
            if listenerPausedUntil != 0 && env.now >= listenerPausedUntil { resumeListener() }
            if !timers.isEmpty { fireTimers() }
            if env.now >= nextSweep {
                sweep()
                nextSweep = env.now + UInt64(shared.tickMillis) * 1_000_000
            }
            if env.peakPendingOutput > publishedPeak {
                publishedPeak = env.peakPendingOutput
                shared.notePendingOutput(publishedPeak)
            }
            if draining {
                if env.now >= drainDeadline { break }
                // Listeners first, then hand-offs: a socket handed over before the last listener
                // closed is adopted before this loop may finish.
                if shared.allListenersClosed {
                    takeHandoffs()
                    if openCount == 0 { break }
                }
            }
        }
        outbound.closeAll()
        outbound.uninstall()
        for case let conn? in connections { closeConnection(conn) }
        for (fd, _) in handoff.withLock({ q -> [(fd: Int32, peer: String)] in defer { q.removeAll() }; return q }) {
            Sys.close(fd)
            shared.releaseConnection()
        }
        closeListener()
        mailbox.close()?.loopTookIt()
        // Loops refer to each other: let go, so the server's loops (and their pollers) are freed.
        peers = []
        targets = []
    }

    private func waitMillis(until nextSweep: UInt64) -> Int32 {
        var deadline = nextSweep
        for timer in timers where timer.at < deadline { deadline = timer.at }
        if listenerPausedUntil != 0 && listenerPausedUntil < deadline { deadline = listenerPausedUntil }
        if deadline <= env.now { return 0 }
        let millis = (deadline - env.now + 999_999) / 1_000_000
        return Int32(min(millis, UInt64(shared.tickMillis)))
    }

    /// The outbound client's next deadline if it comes before `deadline`. Out of line, asked only
    /// while the client is busy: inside `waitMillis` it stopped that being inlined (callgrind:
    /// ~25 instructions per request of the systems).
    @inline(never)
    private func outboundDeadline(before deadline: UInt64) -> UInt64 {
        let due = outbound.nextDeadline
        return due != 0 && due < deadline ? due : deadline
    }

    private func updateClock() {
        env.now = Sys.monotonicNanos()
        let second = Sys.wallSeconds()
        if second != dateSecond {
            dateSecond = second
            env.date = HTTPResponseEncoder.httpDate(epochSeconds: second)
        }
    }

    // MARK: - Accepting

    @inline(__always)
    private func isListener(_ fd: Int32) -> Bool {
        if fd == firstListenFD { return true }
        return moreListeners && listenFDs.contains(fd)
    }

    private func acceptConnections(from listenFD: Int32) {
        for _ in 0..<64 {
            switch Sys.accept(listenFD) {
            case .wouldBlock:
                return
            case .retry:
                continue
            case .failed(let e):
                shared.logger.error("accept: \(Sys.errorText(e))")
                return
            case .outOfDescriptors(let e):
                // On Linux the spare descriptor makes room to take the waiting client and close it
                // cleanly; xnu has already dropped that client, and another accept there would
                // drop a second one. Then the level-triggered listener is left alone for a moment
                // instead of spinning.
                warnRateLimited("out of file descriptors (\(Sys.errorText(e))); refusing a connection — raise `ulimit -n` or lower --max-connections")
                if !Sys.acceptDropsClientWhenOutOfDescriptors {
                    if spareFD >= 0 { Sys.close(spareFD); spareFD = -1 }
                    if case .connection(let fd, _) = Sys.accept(listenFD) { Sys.close(fd) }
                    spareFD = Sys.openSpare()
                }
                pauseListener()
                return
            case .connection(let fd, let peer):
                guard shared.reserveConnection() else {
                    if shared.reserveReservedSlot() {
                        // Kept on this loop: only a reserved path is answered on it, then it closes.
                        warnRateLimited("connection limit (\(shared.connectionLimit)) reached; only \(shared.reservedPaths.sorted().joined(separator: ", ")) is answered to new clients — raise it with --max-connections")
                        adopt(fd, peer, onReservedSlot: true)
                    } else {
                        refuse(fd, peer)
                    }
                    continue
                }
                Sys.setKeepAlive(fd, idleSeconds: EventLoop.keepAliveIdleSeconds)
                if targets.isEmpty {
                    adopt(fd, peer)
                } else {
                    let target = targets[nextTarget % targets.count]
                    nextTarget &+= 1
                    if target === self { adopt(fd, peer) } else { target.handOff(fd: fd, peer: peer) }
                }
            }
        }
    }

    private func refuse(_ fd: Int32, _ peer: String) {
        warnRateLimited("connection limit (\(shared.connectionLimit)) reached; answering 503 — raise it with --max-connections")
        var refusal = HTTPResponse.jsonError(.serviceUnavailable, "Too many open connections")
        refusal.headers.set("Retry-After", "1")
        var bytes: [UInt8] = []
        HTTPResponseEncoder.encode(refusal, omitBody: false, keepAlive: false, requestVersion: .http1_1, date: env.date, into: &bytes)
        _ = bytes.withUnsafeBytes { Sys.send(fd, $0) }
        Sys.close(fd)
        shared.logger.request(RequestLogEntry(method: "-", path: "-", status: 503, durationNanos: 0, remoteAddress: peer))
    }

    private func pauseListener() {
        guard !listenFDs.isEmpty else { return }
        for fd in listenFDs { try? poller.modify(fd, read: false, write: false) }
        listenerPausedUntil = env.now + EventLoop.outOfDescriptorsBackoff
    }

    private func resumeListener() {
        listenerPausedUntil = 0
        for fd in listenFDs { try? poller.modify(fd, read: true, write: false) }
    }

    private func closeListener() {
        guard !listenFDs.isEmpty else { return }
        for fd in listenFDs {
            poller.remove(fd)
            Sys.close(fd)
        }
        listenFDs = []
        firstListenFD = -1
        moreListeners = false
        shared.listenerClosed()
        // Other loops may be waiting for the last listener (and its hand-offs) before they finish.
        for peer in peers where peer !== self { peer.wake() }
    }

    private func adopt(_ fd: Int32, _ peer: String, onReservedSlot: Bool = false) {
        serial &+= 1
        let machine = ConnectionMachine(id: ConnectionID(fd: fd, serial: serial), remoteAddress: peer, localPort: port, environment: env,
                                        onlyPaths: onReservedSlot ? shared.reservedPaths : nil)
        let conn = Connection(fd: fd, machine: machine, onReservedSlot: onReservedSlot)
        store(conn)
        do {
            try poller.add(fd, read: true, write: false)
        } catch {
            closeConnection(conn)
        }
    }

    private func takeHandoffs() {
        let handed = handoff.withLock { q -> [(fd: Int32, peer: String)] in
            if q.isEmpty { return [] }
            defer { q.removeAll() }
            return q
        }
        for (fd, peer) in handed {
            adopt(fd, peer)
            if draining, let conn = connection(fd) { drain(conn) }
        }
    }

    private func warnRateLimited(_ message: String) {
        if env.now - lastAcceptWarning > 1_000_000_000 || lastAcceptWarning == 0 {
            lastAcceptWarning = env.now
            shared.logger.warning(message)
        }
    }

    // MARK: - Reading and writing

    /// Reads once into the machine; returns whether bytes arrived (the connection may be closed after).
    private func readable(_ conn: Connection) -> Bool {
        let machine = conn.machine
        guard machine.wantsRead else { return false }
        let n = Sys.recv(conn.fd, into: scratch)
        if n == 0 {
            machine.peerClosed()
            reconcile(conn)
            return false
        }
        if n < 0 {
            let e = Sys.lastError
            if Sys.isWouldBlock(e) || e == EINTR { return false }
            closeConnection(conn)
            return false
        }
        machine.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
        reconcile(conn)
        return true
    }

    /// Performs what the machine asks: write, close, linger, reset, watch, set a timer.
    private func reconcile(_ conn: Connection) {
        let machine = conn.machine
        while true {
            if machine.close == .now { closeConnection(conn); return }
            if machine.close == .abort { closeConnection(conn, abortive: true); return }
            if machine.pendingOutput > 0 {
                if conn.writeBlocked { break }
                let n = machine.withPendingOutput { Sys.send(conn.fd, $0) }
                if n > 0 {
                    machine.didWrite(n)
                } else if n < 0 && Sys.isWouldBlock(Sys.lastError) {
                    conn.writeBlocked = true
                    break
                } else if n < 0 && Sys.lastError == EINTR {
                    continue
                } else {
                    // Any other errno ends the connection: a reset peer gives ECONNRESET here on
                    // Linux and EPIPE on Darwin (docs/darwin-differences.md), so none is singled out.
                    closeConnection(conn)
                    return
                }
                continue
            }
            switch machine.close {
            case .afterFlush:
                // Half-close and drain the peer briefly, so a client still sending (a body we
                // refused) reads our answer instead of a reset.
                Sys.shutdownWrite(conn.fd)
                machine.startLingering()
            case .reset:
                closeConnection(conn, abortive: true)
                return
            case .none, .now, .abort:
                break
            }
            break
        }
        let read = machine.wantsRead
        let write = conn.writeBlocked && machine.pendingOutput > 0
        if read != conn.watchingRead || write != conn.watchingWrite {
            conn.watchingRead = read
            conn.watchingWrite = write
            try? poller.modify(conn.fd, read: read, write: write)
        }
        // One timer per connection at a time, the earliest: a deferred answer's deadline is set
        // for every changing request under --state, and a timer per request (each kept until it
        // fired, 30 s later) made every loop turn scan thousands of them. A later release is
        // set when the pending timer fires.
        let release = machine.nextRelease
        if release != 0 && (conn.timerAt == 0 || release < conn.timerAt) {
            conn.timerAt = release
            timers.append((release, machine.id))
        }
    }

    // MARK: - Timers, commands and shutdown

    private func fireTimers() {
        let now = env.now
        var due: [ConnectionID] = []
        timers.removeAll { timer in
            if timer.at <= now { due.append(timer.id); return true }
            return false
        }
        for id in due {
            guard let conn = connection(id.fd), conn.machine.id == id else { continue }
            // An earlier timer of this connection already fired (and maybe set a later one).
            if conn.timerAt > now { continue }
            conn.timerAt = 0
            conn.machine.tick()
            reconcile(conn)
        }
    }

    private func runCommands() {
        let (commands, swap) = mailbox.take()
        if let swap {
            // Requests parsed from here on get the new responder; connections already upgraded
            // to WebSocket keep the endpoint they were given.
            env.responder = swap.responder
            swap.loopTookIt()
        }
        guard !commands.isEmpty else { return }
        // Every command first, then one reconcile (one write) per connection they touched: a batch
        // of event messages for one WebSocket goes out in one system call, not one per message.
        var touched: [Connection] = []
        for (id, command) in commands {
            guard let conn = connection(id.fd), conn.machine.id == id else { continue }
            conn.machine.command(command)
            if !conn.reconcileQueued { conn.reconcileQueued = true; touched.append(conn) }
        }
        for conn in touched {
            conn.reconcileQueued = false
            if connection(conn.fd) === conn { reconcile(conn) }
        }
    }

    private func sweep() {
        for case let conn? in connections {
            conn.machine.tick()
            reconcile(conn)
        }
        // After a burst (clients that pipelined and left), hand the freed buffers back to the system.
        if env.releasedBytes >= EventLoop.releaseThreshold && shared.releaseFreeMemory(now: env.now) { env.releasedBytes = 0 }
    }

    private func beginDrain() {
        draining = true
        env.draining = true
        drainDeadline = env.now + UInt64(shared.configuration.shutdownGrace * 1e9)
        if !listenFDs.isEmpty {
            // Clients the kernel already accepted would be reset with the listener: take them first.
            if listenerPausedUntil == 0 { for fd in listenFDs { acceptConnections(from: fd) } }
            closeListener()
        }
        takeHandoffs()
        for case let conn? in connections { drain(conn) }
    }

    /// Reads what has already arrived before deciding whether the connection is idle.
    private func drain(_ conn: Connection) {
        for _ in 0..<16 {
            guard connection(conn.fd) === conn, readable(conn) else { break }
        }
        guard connection(conn.fd) === conn else { return }
        conn.machine.beginDrain()
        reconcile(conn)
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

    private func closeConnection(_ conn: Connection, abortive: Bool = false) {
        let i = Int(conn.fd)
        guard i >= 0, i < connections.count, connections[i] === conn else { return }
        connections[i] = nil
        openCount -= 1
        poller.remove(conn.fd)
        if abortive { Sys.abortiveClose(conn.fd) } else { Sys.close(conn.fd) }
        if conn.onReservedSlot { shared.releaseReservedSlot() } else { shared.releaseConnection() }
        conn.machine.closed()
    }
}
