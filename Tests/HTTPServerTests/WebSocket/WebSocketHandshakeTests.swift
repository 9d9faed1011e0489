import XCTest
import HTTPServer

final class WebSocketHandshakeTests: XCTestCase {
    /// RFC 6455 §1.3.
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="
    private let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private func request(method: HTTPMethod = .get, version: HTTPVersion = .http1_1,
                         headers: [(String, String)]? = nil) -> HTTPRequest {
        let fields = headers ?? [
            ("Host", "localhost"), ("Upgrade", "WebSocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13"),
        ]
        return HTTPRequest(method: method, target: "/__mock/echo", version: version,
                           headers: HTTPHeaders(fields.map { (name: $0.0, value: $0.1) }))
    }

    func testAcceptKeyRFC6455Vector() {
        XCTAssertEqual(WebSocketHandshake.acceptKey(for: key), accept)
    }

    func testIsUpgradeRequestIgnoresCase() {
        XCTAssertTrue(WebSocketHandshake.isUpgradeRequest(request()))
        XCTAssertTrue(WebSocketHandshake.isUpgradeRequest(request(headers: [("upgrade", "websocket"), ("connection", "UPGRADE")])))
        XCTAssertFalse(WebSocketHandshake.isUpgradeRequest(request(headers: [("Upgrade", "websocket")])))
        XCTAssertFalse(WebSocketHandshake.isUpgradeRequest(request(headers: [("Upgrade", "h2c"), ("Connection", "Upgrade")])))
        XCTAssertFalse(WebSocketHandshake.isUpgradeRequest(request(headers: [])))
    }

    func testAcceptsValidRequest() {
        let (response, accepted) = WebSocketHandshake.response(for: request())
        XCTAssertTrue(accepted)
        XCTAssertEqual(response.status.code, 101)
        XCTAssertEqual(response.headers["Upgrade"], "websocket")
        XCTAssertEqual(response.headers["Connection"], "Upgrade")
        XCTAssertEqual(response.headers["Sec-WebSocket-Accept"], accept)
        XCTAssertTrue(response.body.isEmpty)
    }

    func testIgnoresSubprotocolAndExtensions() {
        var req = request()
        req.headers.add("Sec-WebSocket-Protocol", "chat")
        req.headers.add("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")
        let (response, accepted) = WebSocketHandshake.response(for: req)
        XCTAssertTrue(accepted)
        XCTAssertNil(response.headers["Sec-WebSocket-Protocol"])
        XCTAssertNil(response.headers["Sec-WebSocket-Extensions"])
    }

    func testRejectsNonGET() {
        let (response, accepted) = WebSocketHandshake.response(for: request(method: .post))
        XCTAssertFalse(accepted)
        XCTAssertEqual(response.status.code, 405)
        XCTAssertEqual(response.headers["Allow"], "GET")
        XCTAssertFalse(response.body.isEmpty)
    }

    func testRejectsHTTP10() {
        let (response, accepted) = WebSocketHandshake.response(for: request(version: .http1_0))
        XCTAssertFalse(accepted)
        XCTAssertEqual(response.status.code, 400)
    }

    func testRejectsMissingOrInvalidKey() {
        var missing = request()
        missing.headers.remove("Sec-WebSocket-Key")
        XCTAssertEqual(WebSocketHandshake.response(for: missing).response.status.code, 400)
        // Valid Base64 of 15 bytes, not Base64 at all, empty, two keys.
        for bad in ["AAAAAAAAAAAAAAAAAAAA", "not base64!!", ""] {
            var req = request()
            req.headers.set("Sec-WebSocket-Key", bad)
            let (response, accepted) = WebSocketHandshake.response(for: req)
            XCTAssertFalse(accepted, bad)
            XCTAssertEqual(response.status.code, 400, bad)
        }
        var twice = request()
        twice.headers.add("Sec-WebSocket-Key", key)
        XCTAssertEqual(WebSocketHandshake.response(for: twice).response.status.code, 400)
    }

    func testRejectsOtherVersionsWith426() {
        for version in ["8", "14", ""] {
            var req = request()
            req.headers.set("Sec-WebSocket-Version", version)
            let (response, accepted) = WebSocketHandshake.response(for: req)
            XCTAssertFalse(accepted)
            XCTAssertEqual(response.status.code, 426)
            XCTAssertEqual(response.headers["Sec-WebSocket-Version"], "13")
        }
        var missing = request()
        missing.headers.remove("Sec-WebSocket-Version")
        XCTAssertEqual(WebSocketHandshake.response(for: missing).response.status.code, 426)
    }
}
