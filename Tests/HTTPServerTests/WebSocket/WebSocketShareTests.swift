import Foundation
import XCTest
import HTTPServer
import TestSupport

/// Issue 20 §2: WebSockets hold at most their share of the connection limit, so idle ones that
/// answer pings cannot lock HTTP clients out.
final class WebSocketShareTests: XCTestCase {
    private func upgrade(_ port: Int) throws -> (TestResponse, TestHTTPClient) {
        let c = try TestHTTPClient(port: port)
        try c.send("GET /echo-ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                   "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return (try c.readResponse(), c)
    }

    func testByDefaultHalfTheConnectionsMayBeWebSockets() throws {
        let f = try WireFixture { $0.maxConnections = 6 }
        let open = try (0..<3).map { _ in try TestWebSocket(port: f.port, path: "/echo-ws") }
        let (refused, _) = try upgrade(f.port)
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertTrue(refused.header("X-Mock-Hint")?.contains("--max-websockets") ?? false, refused.header("X-Mock-Hint") ?? "")
        // HTTP clients still get in beside the WebSockets.
        let http = try f.client()
        try http.sendRequest("GET", "/hello")
        XCTAssertEqual(try http.readResponse().status, 200)
        try open[0].send(text: "alive")
        XCTAssertEqual(try open[0].receiveMessage(), .text("alive"), "the open ones are unaffected")
    }

    func testTheFlagSetsTheShareAndAClosedWebSocketGivesItsSlotBack() throws {
        let f = try WireFixture { $0.maxConnections = 10; $0.maxWebSocketConnections = 1 }
        var first: TestWebSocket? = try TestWebSocket(port: f.port, path: "/echo-ws")
        XCTAssertEqual(try upgrade(f.port).0.status, 503)
        first = nil  // closes the socket; the server releases the slot when it sees EOF
        XCTAssertNil(first)
        var upgraded = false
        for _ in 0..<200 where !upgraded {
            if let (r, _) = try? upgrade(f.port), r.status == 101 { upgraded = true }
        }
        XCTAssertTrue(upgraded, "the slot came back")
    }
}
