import Foundation
import HTTPServer
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Why a test client gave up (the test then fails with this text instead of hanging).
package struct TestClientError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A blocking HTTP/1.1 client on one TCP connection, reading responses byte-exactly, for wire tests.
package final class TestHTTPClient {
    package let fd: Int32
    package let port: Int
    private var buffer: [UInt8] = []

    /// Connects to host:port (numeric, 127.0.0.1 by default); reads give up after `timeout` seconds.
    package init(host: String = "127.0.0.1", port: Int, timeout: Double = 5) throws {
        self.port = port
        fd = try TestSocket.connect(host: host, port: port, timeout: timeout)
    }

    deinit { close(fd) }

    /// Sends bytes as they are.
    package func send(_ bytes: [UInt8]) throws { try TestSocket.sendAll(fd, bytes) }

    package func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with `Host` and (for a body) `Content-Length` added.
    package func sendRequest(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws {
        // Host as a browser sends it (with the port), unless the test brings its own.
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (n, v) in headers { head += "\(n): \(v)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
    }

    /// Reads one response; `head` skips the body of a HEAD answer. 1xx interim responses are returned too.
    package func readResponse(head: Bool = false) throws -> TestResponse {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TestClientError("bad status line: \(statusLine)")
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError("bad header line: \(line)") }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        var body: [UInt8] = []
        if status >= 200 && status != 204 && status != 304 && !head {
            if let te = headers["Transfer-Encoding"], te.lowercased().contains("chunked") {
                throw TestClientError("chunked responses are not expected from mock-server")
            } else if let cl = headers["Content-Length"], let n = Int(cl) {
                try fill(n)
                body = Array(buffer[0..<n])
                buffer.removeFirst(n)
            } else {
                // No length: the body runs to the end of the connection.
                while try readMore() {}
                body = buffer
                buffer.removeAll()
            }
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// True when the server has closed the connection (reads EOF), false if data or nothing arrives in time.
    package func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        if n == 1 { buffer.append(byte); return false }
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// Every byte the server sends until it closes the connection (what is left of the buffer
    /// first): for tests that parse an answer themselves, strictly.
    package func readToEnd() throws -> [UInt8] {
        while try readMore() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Closes the writing side (the server then sees EOF).
    package func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    private func readUntil(_ needle: [UInt8]) throws -> Int {
        var from = 0
        while true {
            if buffer.count >= needle.count {
                var i = max(0, from - needle.count)
                while i <= buffer.count - needle.count {
                    if buffer[i] == needle[0] && Array(buffer[i..<(i + needle.count)]) == needle { return i }
                    i += 1
                }
                from = buffer.count
            }
            guard try readMore() else { throw TestClientError("connection closed before a complete response head (got \(buffer.count) bytes)") }
        }
    }

    private func fill(_ n: Int) throws {
        while buffer.count < n {
            guard try readMore() else { throw TestClientError("connection closed after \(buffer.count) of \(n) body bytes") }
        }
    }

    /// Reads what is available; false on EOF. Throws on timeout.
    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
        if n == 0 { return false }
        if errno == ECONNRESET { return false }
        throw TestClientError("no response within the timeout (errno \(errno))")
    }
}
