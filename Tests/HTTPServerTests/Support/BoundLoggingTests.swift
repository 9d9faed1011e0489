import Foundation
import XCTest
import HTTPServer
import TestSupport

/// Hitting a bound is a log line, for WebSocket closes as for HTTP statuses.
final class BoundLoggingTests: XCTestCase {
    func testOversizedWebSocketMessageIsClosedWith1009AndLogged() throws {
        let lines = Locked<[String]>([])
        let f = try WireFixture(logger: Logger(level: .info, sink: { line in lines.withLock { $0.append(line) } })) {
            $0.maxWebSocketMessageBytes = 1000
        }
        let ws = try TestWebSocket(port: f.port, path: "/echo-ws")
        try ws.send(text: String(repeating: "x", count: 2000))
        XCTAssertEqual(try ws.receiveClose(), 1009)
        // The log line is written before the close frame is sent, so it is there by now.
        XCTAssertTrue(lines.withLock { $0 }.contains { $0.contains("WebSocket close 1009") }, "\(lines.withLock { $0 })")
    }

    func testOversizedHeadersAreLogged() throws {
        let lines = Locked<[String]>([])
        let f = try WireFixture(logger: Logger(level: .info, sink: { line in lines.withLock { $0.append(line) } })) {
            $0.maxHeaderBytes = 512
        }
        let (r, _) = try f.raw("GET /hello HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 1000))\r\n\r\n")
        XCTAssertEqual(r.status, 431)
        // One line with the status and the reason.
        XCTAssertEqual(lines.withLock { $0 }.filter { $0.contains("431") && $0.contains("request head larger than 512 bytes") }.count, 1,
                       "\(lines.withLock { $0 })")
    }
}
