import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The blocking TCP connection both test clients start from.
enum TestSocket {
    /// Connects to host:port (a numeric address: 127.0.0.1 by default, or ::1) with TCP_NODELAY;
    /// reads and writes give up after `timeout` seconds, so a broken server fails a test instead of hanging it.
    static func connect(host: String = "127.0.0.1", port: Int, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        // getaddrinfo fills in the whole sockaddr, `sin_len`/`sin6_len` included on Darwin.
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let ai = list else {
            throw TestClientError("not a numeric address: \(host)")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, 0)
        guard fd >= 0 else { throw TestClientError("socket() failed: errno \(errno)") }
        #if canImport(Darwin)
        // Darwin has no MSG_NOSIGNAL on every SDK: the socket itself never raises SIGPIPE.
        var noSigPipe: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var tv = timeval(tv_sec: Int(timeout), tv_usec: suseconds_t((timeout - floor(timeout)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard systemConnect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 else {
            let error = errno
            TestSocket.close(fd)
            throw TestClientError("connect to \(host) port \(port) failed: errno \(error)")
        }
        return fd
    }

    /// Writes all of `bytes`, however many `send` calls it takes.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { systemSend(fd, $0.baseAddress.map { $0 + sent }, bytes.count - sent) }
            guard n > 0 else { throw TestClientError("send failed: errno \(errno)") }
            sent += n
        }
    }

    static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #else
        _ = Glibc.close(fd)
        #endif
    }

    private static func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
        return Darwin.connect(fd, address, length)
        #else
        return Glibc.connect(fd, address, length)
        #endif
    }

    /// A send that never raises SIGPIPE (MSG_NOSIGNAL on Linux, SO_NOSIGPIPE set at connect on Darwin).
    private static func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.send(fd, bytes, count, 0)
        #else
        return Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
        #endif
    }
}
