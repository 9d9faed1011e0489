import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server a test starts on 127.0.0.1 as a proxy's upstream: one thread per
/// connection (blocking sockets, fine for a test), each request read whole (Content-Length
/// bodies) and handed to `answer`, which says what to do on the wire.
package final class LoopbackUpstream: @unchecked Sendable {
    /// One request as the upstream read it.
    package struct Seen: Sendable {
        package var head: String
        package var requestLine: String
        package var headers: [(String, String)]
        package var body: [UInt8]
        package func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// What the upstream does with a request.
    package enum Action: Sendable {
        /// Writes these bytes (a whole response, framed by the test) and keeps the connection.
        case send([UInt8])
        /// Writes these bytes, then closes (close-delimited bodies).
        case sendAndClose([UInt8])
        /// Closes with a TCP reset.
        case reset
        /// Never answers (the connection stays open until `stop`).
        case silent
    }

    package let port: Int
    private let listener: Int32
    private let answer: @Sendable (Seen) -> Action
    private let state = NSCondition()
    private var seen: [Seen] = []
    private var accepted = 0
    private var open: [Int32] = []
    private var stopped = false

    package init(answer: @escaping @Sendable (Seen) -> Action) throws {
        self.answer = answer
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw TestClientError("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw TestClientError("bind/listen failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// The requests read so far, in order.
    package var requests: [Seen] { state.withLock { seen } }
    /// Waits (on a condition, not a sleep) until `count` requests have arrived; false when they
    /// have not within `timeout` seconds (a failing test then says so instead of hanging).
    package func waitForRequests(_ count: Int, timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        defer { state.unlock() }
        while seen.count < count {
            if !state.wait(until: deadline) { return seen.count >= count }
        }
        return true
    }

    /// Connections accepted so far.
    package var connections: Int { state.withLock { accepted } }

    /// Closes the listener and every connection.
    package func stop() {
        let fds = state.withLock { () -> [Int32] in
            if stopped { return [] }
            stopped = true
            defer { open = [] }
            return open + [listener]
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
    }

    /// A port nothing listens on (bound, then closed): a refused connection.
    package static func closedPort() throws -> Int {
        let upstream = try LoopbackUpstream { _ in .silent }
        let port = upstream.port
        upstream.stop()
        return port
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            let keep = state.withLock { () -> Bool in
                if stopped { return false }
                accepted += 1
                open.append(fd)
                return true
            }
            guard keep else { close(fd); return }
            Thread.detachNewThread { [self] in serve(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // Head, then a Content-Length body.
            var headEnd: Int?
            while headEnd == nil {
                if let r = LoopbackUpstream.find([13, 10, 13, 10], in: buffer) { headEnd = r; break }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer.append(contentsOf: chunk[0..<n])
            }
            guard let end = headEnd else { return }
            let head = String(decoding: buffer[0..<end], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let requestLine = lines.removeFirst()
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
            while buffer.count < end + 4 + length {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer.append(contentsOf: chunk[0..<n])
            }
            let seenRequest = Seen(head: head, requestLine: requestLine, headers: headers, body: Array(buffer[(end + 4)..<(end + 4 + length)]))
            buffer.removeFirst(end + 4 + length)
            state.withLock { seen.append(seenRequest); state.broadcast() }
            switch answer(seenRequest) {
            case .send(let bytes):
                guard LoopbackUpstream.sendAll(fd, bytes) else { return }
            case .sendAndClose(let bytes):
                _ = LoopbackUpstream.sendAll(fd, bytes)
                shutdown(fd, Int32(SHUT_WR))
                return
            case .reset:
                var l = linger(l_onoff: 1, l_linger: 0)
                _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
                let closed = state.withLock { () -> Bool in
                    guard let i = open.firstIndex(of: fd) else { return false }
                    open.remove(at: i)
                    return true
                }
                if closed { close(fd) }
                return
            case .silent:
                // Stays open until `stop` closes it (recv then returns 0).
                while recv(fd, &chunk, chunk.count, 0) > 0 {}
                return
            }
        }
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            #if canImport(Darwin)
            let n = bytes.withUnsafeBytes { raw in raw.baseAddress.map { send(fd, $0 + sent, bytes.count - sent, 0) } ?? -1 }
            #else
            let n = bytes.withUnsafeBytes { raw in raw.baseAddress.map { send(fd, $0 + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) } ?? -1 }
            #endif
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    /// A response with a Content-Length body and these fields.
    package static func response(_ status: String, _ headers: [(String, String)] = [], body: [UInt8] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }
}
