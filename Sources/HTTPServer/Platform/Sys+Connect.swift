#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The outbound half of the socket calls: resolving an upstream and a non-blocking connect.
extension Sys {
    /// The outcome of starting a connection.
    enum ConnectStart {
        /// Connected already (loopback can) or under way: watch for writability, then `socketError`.
        case started(fd: Int32, inProgress: Bool)
        case failed(errno: Int32)
    }

    /// The addresses `host` resolves to for connecting to `port`, IPv4 first; empty when none.
    /// getaddrinfo blocks: callers cache the answer (a numeric address costs no lookup).
    static func resolveForConnect(_ host: String, port: Int) -> [(storage: sockaddr_storage, length: socklen_t)] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(name, String(port), &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var v4: [(storage: sockaddr_storage, length: socklen_t)] = [], v6: [(storage: sockaddr_storage, length: socklen_t)] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            guard let sa = ai.pointee.ai_addr, Int(ai.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: sa, count: Int(ai.pointee.ai_addrlen))) }
            if ai.pointee.ai_family == AF_INET { v4.append((storage, ai.pointee.ai_addrlen)) } else { v6.append((storage, ai.pointee.ai_addrlen)) }
        }
        return v4 + v6
    }

    /// A non-blocking, close-on-exec socket connecting to `address`.
    static func startConnect(_ address: (storage: sockaddr_storage, length: socklen_t)) -> ConnectStart {
        var storage = address.storage
        let fd = streamSocket(family: Int32(storage.ss_family))
        guard fd >= 0 else { return .failed(errno: errno) }
        setCloseOnExec(fd)
        setNonBlocking(fd)
        setNoDelay(fd)
        #if canImport(Darwin)
        setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
        }
        if rc == 0 { return .started(fd: fd, inProgress: false) }
        let e = errno
        if e == EINPROGRESS || e == EINTR { return .started(fd: fd, inProgress: true) }
        close(fd)
        return .failed(errno: e)
    }

    /// The pending error of a socket (0: none): how a non-blocking connect's outcome is read.
    static func socketError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }
}
