#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The transport's system calls, one place for all of them. What differs between Linux and Darwin
/// is in Sys+Glibc.swift and Sys+Darwin.swift (`streamSocket`, `acceptConfigured`, `sendFlags`,
/// `keepIdleOption`, `fileLimitCap`, `reusePortSpreadsConnections`); the rest is shared and is
/// exercised on Linux by the poll backend.
///
/// Calls that fail return what the C call returns (-1) with `errno` set, unless they say otherwise.
enum Sys {
    // MARK: - errno

    /// The current thread's errno.
    static var lastError: Int32 { errno }

    /// EAGAIN / EWOULDBLOCK (the same value on Linux, not guaranteed by POSIX).
    static func isWouldBlock(_ code: Int32) -> Bool { code == EAGAIN || code == EWOULDBLOCK }

    static func errorText(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "errno \(code)" }
        return String(cString: s)
    }

    // MARK: - Descriptor flags and socket options

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        if flags >= 0 && flags & O_NONBLOCK == 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// So a child process (none today) does not inherit the socket. Darwin has no SOCK_CLOEXEC.
    static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var v = value
        _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Small responses leave at once instead of waiting for the peer's delayed ACK (Nagle).
    static func setNoDelay(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// TCP keepalive, first probe after `idleSeconds` of silence, so dead peers are found.
    static func setKeepAlive(_ fd: Int32, idleSeconds: Int32) {
        setOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1)
        setOption(fd, Int32(IPPROTO_TCP), keepIdleOption, max(1, idleSeconds))
    }

    // MARK: - Listening

    /// Creates non-blocking listening sockets on host:port, one for each distinct address `host`
    /// resolves to, all on one port; returns them and the bound port. `localhost` listens on both
    /// 127.0.0.1 and ::1, so a client reaches the server whichever one it tries first. An address
    /// this machine cannot bind (no IPv6) is skipped when another one works.
    static func listen(host: String, port: Int, backlog: Int32, reusePort: Bool) throws -> (fds: [Int32], port: Int) {
        let addresses = try resolve(host)
        // With an IPv4 address beside it, an IPv6 socket serves IPv6 only (Linux and Darwin default
        // to dual-stack, which would make `::` take the IPv4 port too and the second bind fail).
        let v6Only = addresses.contains { Int32($0.storage.ss_family) == AF_INET }
        // Port 0: the first address picks a free port, the others take the same one, which another
        // program may hold on their family; pick again a few times before giving up.
        for _ in 0..<(port == 0 ? 8 : 1) {
            var fds: [Int32] = []
            var bound = port
            var lastError: Int32 = 0
            var portTaken = false
            for address in addresses {
                let fd = openListener(address, port: bound, backlog: backlog, reusePort: reusePort, v6Only: v6Only)
                if fd >= 0 {
                    fds.append(fd)
                    bound = boundPort(fd) ?? bound
                    continue
                }
                lastError = errno
                if lastError == EADDRINUSE {
                    portTaken = true
                    break
                }
            }
            if portTaken {
                for fd in fds { Sys.close(fd) }
                if port != 0 || fds.isEmpty { throw ServerError.addressInUse(host: host, port: port) }
                continue
            }
            if !fds.isEmpty { return (fds, bound) }
            throw ServerError.system(call: "bind", errno: lastError)
        }
        throw ServerError.addressInUse(host: host, port: port)
    }

    /// The distinct addresses `host` resolves to for a listener (`*`: every IPv4 interface).
    /// `localhost` is both loopbacks (RFC 6761), whatever /etc/hosts says: Linux images often
    /// list only 127.0.0.1 for it, macOS lists ::1 first.
    private static func resolve(_ host: String) throws -> [(storage: sockaddr_storage, length: socklen_t)] {
        if host.lowercased() == "localhost" { return try resolve("127.0.0.1") + ((try? resolve("::1")) ?? []) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let name = host == "*" ? "0.0.0.0" : host
        // getaddrinfo fills in the whole sockaddr, `sin_len` included on Darwin.
        guard getaddrinfo(name, "0", &hints, &list) == 0, let first = list else {
            throw ServerError.cannotResolve(host: host)
        }
        defer { freeaddrinfo(list) }
        var addresses: [(storage: sockaddr_storage, length: socklen_t)] = []
        var seen: [[UInt8]] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            guard let sa = ai.pointee.ai_addr, Int(ai.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size else { continue }
            // /etc/hosts may list a name twice; a second bind of one address would fail.
            let key = Array(UnsafeRawBufferPointer(start: sa, count: Int(ai.pointee.ai_addrlen)))
            guard !seen.contains(key) else { continue }
            seen.append(key)
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: key.count)) }
            addresses.append((storage, ai.pointee.ai_addrlen))
        }
        guard !addresses.isEmpty else { throw ServerError.cannotResolve(host: host) }
        return addresses
    }

    /// A listening socket on `address` with `port`; -1 with errno set when it cannot be had.
    private static func openListener(_ address: (storage: sockaddr_storage, length: socklen_t), port: Int,
                                     backlog: Int32, reusePort: Bool, v6Only: Bool) -> Int32 {
        var storage = address.storage
        let networkPort = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        withUnsafeMutablePointer(to: &storage) { p in
            switch Int32(p.pointee.ss_family) {
            case AF_INET: p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = networkPort }
            case AF_INET6: p.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = networkPort }
            default: break
            }
        }
        let fd = streamSocket(family: Int32(storage.ss_family))
        if fd < 0 { return -1 }
        setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if reusePort { setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
        if v6Only && Int32(storage.ss_family) == AF_INET6 { setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        let ok = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, address.length) == 0 && systemListen(fd, backlog) == 0 }
        }
        guard ok else {
            let e = errno
            Sys.close(fd)
            errno = e
            return -1
        }
        setNonBlocking(fd)
        return fd
    }

    private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
        return Darwin.listen(fd, backlog)
        #else
        return Glibc.listen(fd, backlog)
        #endif
    }

    static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        guard ok == 0 else { return nil }
        return address(of: storage).port
    }

    // MARK: - Accepting

    /// What one `accept` on a non-blocking listener gave.
    enum AcceptOutcome: Equatable {
        /// A client: non-blocking, close-on-exec, TCP_NODELAY, never raising SIGPIPE.
        case connection(fd: Int32, peer: String)
        /// No client waiting: wait for the listener to be readable again.
        case wouldBlock
        /// EMFILE/ENFILE. Linux leaves the pending client queued and the listener readable, so the
        /// loop backs off (closes the spare descriptor, accepts and closes that client, pauses the
        /// listener); xnu has already taken the client off the queue and closed it
        /// (`uipc_syscalls.c:553-567, 619-634`), so there the loop only pauses the listener
        /// (`acceptDropsClientWhenOutOfDescriptors`).
        case outOfDescriptors(errno: Int32)
        /// A client that went away while queued, a signal, or a transient network error: accept again.
        case retry
        /// Anything else (ENOBUFS, ENOMEM, EBADF): log it and stop accepting for this round.
        case failed(errno: Int32)
    }

    /// Whether the kernel itself drops the pending client when `accept` fails for lack of
    /// descriptors: xnu does ("Don't put this back on the socket like we used to … Drop the
    /// socket", `bsd/kern/uipc_syscalls.c:619-634`), Linux keeps it queued.
    #if canImport(Darwin)
    static let acceptDropsClientWhenOutOfDescriptors = true
    #else
    static let acceptDropsClientWhenOutOfDescriptors = false
    #endif

    static func accept(_ listener: Int32) -> AcceptOutcome {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptConfigured(listener, $0, &len) }
        }
        if fd >= 0 {
            setNoDelay(fd)
            return .connection(fd: fd, peer: address(of: storage).host)
        }
        let e = errno
        if isWouldBlock(e) { return .wouldBlock }
        if e == EMFILE || e == ENFILE { return .outOfDescriptors(errno: e) }
        // Linux's accept(2) asks callers to treat errors of the already-failed connection as EAGAIN-like.
        if e == EINTR || e == ECONNABORTED || e == EPROTO || e == ENETDOWN || e == ENOPROTOOPT
            || e == EHOSTDOWN || e == EHOSTUNREACH || e == EOPNOTSUPP || e == ENETUNREACH || e == EPERM {
            return .retry
        }
        return .failed(errno: e)
    }

    /// A descriptor on /dev/null kept in reserve, closed to make room for one accept when out of
    /// descriptors. Returns -1 if even that fails.
    static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    // MARK: - Reading, writing, closing

    /// Reads into `buffer`: >0 bytes read, 0 peer closed, -1 with errno (EAGAIN: nothing yet).
    static func recv(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = systemRecv(fd, buffer.baseAddress, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// Writes what it can of `bytes` without ever raising SIGPIPE: >=0 bytes written, -1 with errno.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        while true {
            let n = systemSend(fd, bytes.baseAddress, bytes.count, sendFlags)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #else
        _ = Glibc.close(fd)
        #endif
    }

    /// Sends FIN after what is queued; reading stays possible (lingering close). The result is
    /// ignored: a peer already gone (ENOTCONN on Linux and Darwin) shows at the next recv.
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes with a reset (RST) instead of FIN: SO_LINGER on with a zero timeout, then close.
    static func abortiveClose(_ fd: Int32) {
        var l = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    private static func systemRecv(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int, _ flags: Int32) -> Int {
        #if canImport(Darwin)
        return Darwin.recv(fd, p, n, flags)
        #else
        return Glibc.recv(fd, p, n, flags)
        #endif
    }

    private static func systemSend(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int, _ flags: Int32) -> Int {
        #if canImport(Darwin)
        return Darwin.send(fd, p, n, flags)
        #else
        return Glibc.send(fd, p, n, flags)
        #endif
    }

    // MARK: - Files

    /// Opens a file read-only (or a directory, for `flushToStorage`), close-on-exec.
    static func openReadOnly(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_CLOEXEC)
    }

    /// Creates or truncates a file for writing, close-on-exec, mode 0600: the state file holds
    /// passwords, so only its owner may read it.
    static func openForWriting(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    }

    /// Reads until the buffer is full, the file ends or a read fails; returns the bytes read.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = read(fd, base + done, buffer.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done
    }

    /// Writes all of `bytes` (retrying short writes and EINTR); false with errno set on failure.
    static func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let n = write(fd, base + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return false }
            done += n
        }
        return true
    }

    static func rename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Darwin)
        Darwin.rename(from, to)
        #else
        Glibc.rename(from, to)
        #endif
    }

    static func unlink(_ path: String) {
        #if canImport(Darwin)
        _ = Darwin.unlink(path)
        #else
        _ = Glibc.unlink(path)
        #endif
    }

    static func processID() -> Int32 { getpid() }

    // MARK: - Clocks

    /// Nanoseconds of a clock that never goes backwards (not wall time). Darwin's CLOCK_MONOTONIC
    /// keeps counting while the Mac sleeps, Linux's stops during suspend: on a Mac, a timeout that
    /// spans a sleep fires at wake-up (docs/darwin-differences.md).
    static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Seconds since 1970 (for the Date header).
    static func wallSeconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int(ts.tv_sec)
    }

    /// Seconds since 1970 to the nanosecond (the mock's wall clock).
    static func wallTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    // MARK: - Addresses

    static func cText(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The numeric host text and port of a socket address.
    static func address(of storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var addr = sin.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                    return (cText(buffer), Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var addr = sin6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                    return (cText(buffer), Int(UInt16(bigEndian: sin6.pointee.sin6_port)))
                }
            }
        default:
            return ("", 0)
        }
    }
}
