#if canImport(Glibc)
import Glibc
#endif

/// Why the server could not start.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    case addressInUse(host: String, port: Int)
    case cannotResolve(host: String)
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port):
            return "\(host):\(port) is already in use (is another mock-server running? pick another with --port, or --port 0 for a free one)"
        case .cannotResolve(let host):
            return "cannot resolve host \"\(host)\""
        case .system(let call, let code):
            return "\(call) failed: \(Socket.errorText(code))"
        }
    }
}

/// Thin wrappers over the socket calls the server needs.
enum Socket {
    static func errorText(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "errno \(code)" }
        return String(cString: s)
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var v = value
        _ = setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Creates a non-blocking listening socket bound to host:port; returns it and the bound port.
    static func listen(host: String, port: Int, backlog: Int32, reusePort: Bool) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let name = host == "*" ? "0.0.0.0" : host
        guard getaddrinfo(name, String(port), &hints, &list) == 0, let first = list else {
            throw ServerError.cannotResolve(host: host)
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            cursor = ai.pointee.ai_next
            let fd = socket(ai.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { lastError = errno; continue }
            setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            if reusePort { setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1) }
            if bind(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
                lastError = errno
                close(fd)
                if lastError == EADDRINUSE { throw ServerError.addressInUse(host: host, port: port) }
                continue
            }
            if Glibc.listen(fd, backlog) != 0 {
                lastError = errno
                close(fd)
                continue
            }
            setNonBlocking(fd)
            return (fd, boundPort(fd) ?? port)
        }
        throw ServerError.system(call: "bind", errno: lastError)
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
