import Foundation
import HTTPServer
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A blocking raw-socket WebSocket client (RFC 6455) for tests: handshake, masked frames, and
/// frame-level control so tests can also send what a correct client never would.
package final class TestWebSocket {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private var generator = SystemRandomNumberGenerator()
    /// The server's 101 response head (status line and headers, without the blank line).
    package private(set) var handshakeResponseHead: String = ""

    /// Connects to 127.0.0.1:port, performs the opening handshake and checks 101 and
    /// `Sec-WebSocket-Accept`. Reads give up after `timeout` seconds so a broken server fails the test.
    package init(port: Int, path: String, extraHeaders: [(String, String)] = [], timeout: Double = 5) throws {
        fd = try TestSocket.connect(port: port, timeout: timeout)
        do {
            try handshake(path: path, port: port, extraHeaders: extraHeaders)
        } catch {
            // Marked closed so a deinit of the half-made object cannot close a reused descriptor.
            TestSocket.close(fd)
            fd = -1
            throw error
        }
    }

    deinit { if fd >= 0 { TestSocket.close(fd) } }

    /// The socket, for tests that wait on it (poll) instead of reading.
    package var socket: Int32 { fd }

    // MARK: - Sending

    /// Sends a masked, final text frame.
    package func send(text: String) throws { try sendFrame(opcode: WebSocketOpcode.text, payload: Array(text.utf8)) }

    /// Sends a masked, final binary frame.
    package func send(binary: [UInt8]) throws { try sendFrame(opcode: WebSocketOpcode.binary, payload: binary) }

    /// Sends one frame exactly as described (including invalid ones: unmasked, RSV bits, any opcode).
    package func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) throws {
        let mask: UInt32? = masked ? UInt32.random(in: 0...UInt32.max, using: &generator) : nil
        var frame: [UInt8] = []
        frame.reserveCapacity(14 + payload.count)
        WebSocketFrameHeader.encode(fin: fin, rsv: rsv, opcode: opcode, payloadLength: payload.count, mask: mask, into: &frame)
        let start = frame.count
        frame.append(contentsOf: payload)
        if let mask {
            frame.withUnsafeMutableBufferPointer {
                WebSocketMask.apply(mask, phase: 0, to: UnsafeMutableBufferPointer(rebasing: $0[start...]))
            }
        }
        try sendRaw(frame)
    }

    /// Sends bytes as they are (for split frames and malformed input).
    package func sendRaw(_ bytes: [UInt8]) throws { try TestSocket.sendAll(fd, bytes) }

    /// Sends a close frame with `code` (no reason). Read the server's answer with `receiveClose()`.
    package func close(code: UInt16 = 1000) throws {
        try sendFrame(opcode: WebSocketOpcode.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
    }

    // MARK: - Receiving

    /// Reads one frame (server frames must be unmasked; a masked one is reported as an error).
    package func receiveFrame() throws -> (opcode: UInt8, fin: Bool, payload: [UInt8]) {
        while true {
            let parsed = buffer.withUnsafeBufferPointer { WebSocketFrameHeader.parse($0) }
            switch parsed {
            case .needMore(let needed):
                try fill(needed, what: "frame header")
            case .invalidLength:
                throw TestClientError("server sent a 64-bit length with the top bit set")
            case .header(let header):
                guard header.mask == nil else { throw TestClientError("server sent a masked frame") }
                guard header.payloadLength <= UInt64(Int32.max) else {
                    throw TestClientError("server announced a \(header.payloadLength)-byte frame")
                }
                let total = header.headerLength + Int(header.payloadLength)
                try fill(total, what: "frame payload")
                let payload = Array(buffer[header.headerLength..<total])
                buffer.removeFirst(total)
                return (header.opcode, header.fin, payload)
            }
        }
    }

    /// Reads one data message, joining fragments; control frames in between are skipped and
    /// not answered. A close frame instead of a message is an error.
    package func receiveMessage() throws -> WebSocketMessage {
        var opcode: UInt8?
        var payload: [UInt8] = []
        while true {
            let frame = try receiveFrame()
            switch frame.opcode {
            case WebSocketOpcode.ping, WebSocketOpcode.pong:
                continue
            case WebSocketOpcode.close:
                throw TestClientError("expected a message, got close \(TestWebSocket.closeCode(frame.payload).map(String.init) ?? "without code")")
            case WebSocketOpcode.continuation:
                guard opcode != nil else { throw TestClientError("continuation frame without a message") }
            default:
                guard opcode == nil else { throw TestClientError("new data frame inside a fragmented message") }
                opcode = frame.opcode
            }
            payload.append(contentsOf: frame.payload)
            guard frame.fin else { continue }
            if opcode == WebSocketOpcode.text {
                guard let text = validatedUTF8(payload) else { throw TestClientError("server sent invalid UTF-8 text") }
                return .text(text)
            }
            return .binary(payload)
        }
    }

    /// Reads until a close frame arrives and returns its code (nil when it carries none, or on
    /// EOF without a close frame). Data frames before it are skipped.
    package func receiveClose() throws -> UInt16? {
        while true {
            let frame: (opcode: UInt8, fin: Bool, payload: [UInt8])
            do {
                frame = try receiveFrame()
            } catch is EndOfStream {
                return nil
            }
            if frame.opcode == WebSocketOpcode.close { return TestWebSocket.closeCode(frame.payload) }
        }
    }

    /// True when the server has closed the TCP connection (EOF, or a reset) with nothing left unread.
    package func isClosedByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        do { return try !readMore() } catch { return false }
    }

    // MARK: - Internals

    /// EOF while a frame was expected; `receiveClose` turns it into nil.
    private struct EndOfStream: Error, CustomStringConvertible {
        let description: String
    }

    private static func closeCode(_ payload: [UInt8]) -> UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }

    private func handshake(path: String, port: Int, extraHeaders: [(String, String)]) throws {
        var nonce: [UInt8] = []
        for _ in 0..<16 { nonce.append(UInt8.random(in: 0...255, using: &generator)) }
        let key = Base64.encode(nonce)
        // Host as a browser sends it (with the port), unless the test brings its own.
        let host = extraHeaders.contains { $0.0.lowercased() == "host" } ? "" : "Host: 127.0.0.1:\(port)\r\n"
        var request = "GET \(path) HTTP/1.1\r\n\(host)Upgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in extraHeaders { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        try sendRaw(Array(request.utf8))

        let terminator = Array("\r\n\r\n".utf8)
        var end: Int?
        while end == nil {
            if buffer.count >= 4 {
                end = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(terminator) }
            }
            if end == nil {
                guard try readMore() else { throw TestClientError("connection closed during the WebSocket handshake") }
                guard buffer.count <= 65536 else { throw TestClientError("handshake response head too long") }
            }
        }
        let headEnd = end ?? 0
        handshakeResponseHead = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4) // Frames may follow the head in the same read.

        let lines = handshakeResponseHead.components(separatedBy: "\r\n")
        let status = lines.first ?? ""
        guard status.hasPrefix("HTTP/1.1 101") else { throw TestClientError("handshake refused: \(handshakeResponseHead)") }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        let expected = Base64.encode(SHA1.hash(Array((key + WebSocketHandshake.guid).utf8)))
        guard headers["Sec-WebSocket-Accept"] == expected else {
            throw TestClientError("bad Sec-WebSocket-Accept (expected \(expected)): \(handshakeResponseHead)")
        }
        guard headers.hasToken("websocket", in: "Upgrade"), headers.hasToken("upgrade", in: "Connection") else {
            throw TestClientError("101 without Upgrade/Connection headers: \(handshakeResponseHead)")
        }
    }

    private func fill(_ count: Int, what: String) throws {
        while buffer.count < count {
            guard try readMore() else {
                throw EndOfStream(description: "connection closed while reading a \(what) (\(buffer.count) of \(count) bytes)")
            }
        }
    }

    /// Reads what is available; false on EOF or reset. Throws on timeout.
    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
        if n == 0 || errno == ECONNRESET { return false }
        throw TestClientError("no WebSocket data within the timeout (errno \(errno))")
    }
}
