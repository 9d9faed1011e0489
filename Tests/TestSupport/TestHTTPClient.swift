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
            if let te = headers["Transfer-Encoding"] {
                guard te.lowercased() == "chunked", headers["Content-Length"] == nil else {
                    throw TestClientError("Transfer-Encoding \(te) (with Content-Length \(headers["Content-Length"] ?? "none")): only chunked alone is expected")
                }
                body = try readChunkedBody()
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

    /// A chunked body, read strictly (RFC 9112 §7.1): hex sizes with no extensions, CRLF after
    /// each chunk, no trailer fields.
    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        for _ in 0..<1_000_000 {
            let lineEnd = try readUntil(Array("\r\n".utf8))
            let line = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
            buffer.removeFirst(lineEnd + 2)
            guard !line.isEmpty, line.count <= 16, let size = Int(line, radix: 16), size >= 0 else {
                throw TestClientError("bad chunk size line: \(line)")
            }
            if size == 0 {
                try fill(2)
                guard buffer[0] == 0x0D, buffer[1] == 0x0A else { throw TestClientError("trailer fields after the last chunk") }
                buffer.removeFirst(2)
                return body
            }
            try fill(size + 2)
            guard buffer[size] == 0x0D, buffer[size + 1] == 0x0A else { throw TestClientError("a chunk not followed by CRLF") }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
        throw TestClientError("more than 1,000,000 chunks")
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
