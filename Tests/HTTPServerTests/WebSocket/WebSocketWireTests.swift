import XCTest
import HTTPServer
import TestSupport

/// The WebSocket codec over real sockets, through the transport fixture's echo endpoint.
final class WebSocketWireTests: XCTestCase {
    private var server: WireFixture?

    override func setUpWithError() throws {
        server = try WireFixture { $0.maxWebSocketMessageBytes = 1000 }
    }

    override func tearDown() {
        server = nil
    }

    private func connect() throws -> TestWebSocket {
        try TestWebSocket(port: try XCTUnwrap(server).port, path: "/echo-ws")
    }

    func testHandshakeAndEcho() throws {
        let ws = try connect()
        XCTAssertTrue(ws.handshakeResponseHead.hasPrefix("HTTP/1.1 101"), ws.handshakeResponseHead)
        try ws.send(text: "héllo")
        XCTAssertEqual(try ws.receiveMessage(), .text("héllo"))
        try ws.send(binary: [0, 1, 0xFF])
        XCTAssertEqual(try ws.receiveMessage(), .binary([0, 1, 0xFF]))
    }

    func testFragmentsSplitAcrossWritesWithPingInBetween() throws {
        let ws = try connect()
        try ws.sendFrame(opcode: WebSocketOpcode.text, payload: Array("frag".utf8), fin: false)
        try ws.sendFrame(opcode: WebSocketOpcode.ping, payload: [42])
        let pong = try ws.receiveFrame()
        XCTAssertEqual(pong.opcode, WebSocketOpcode.pong)
        XCTAssertEqual(pong.payload, [42])
        // The final fragment one byte per write.
        var frame: [UInt8] = [0x80, 0x85, 0, 0, 0, 0]
        frame.append(contentsOf: Array("ments".utf8))
        for byte in frame { try ws.sendRaw([byte]) }
        XCTAssertEqual(try ws.receiveMessage(), .text("fragments"))
    }

    func testCloseHandshake() throws {
        let ws = try connect()
        try ws.close(code: 1000)
        XCTAssertEqual(try ws.receiveClose(), 1000)
        XCTAssertTrue(ws.isClosedByPeer())
    }

    func testProtocolErrorClosesWith1002() throws {
        let ws = try connect()
        try ws.sendFrame(opcode: WebSocketOpcode.text, payload: Array("x".utf8), masked: false)
        XCTAssertEqual(try ws.receiveClose(), 1002)
    }

    func testOversizedMessageClosesWith1009() throws {
        let ws = try connect()
        try ws.send(binary: [UInt8](repeating: 1, count: 1001))
        XCTAssertEqual(try ws.receiveClose(), 1009)
    }

    func testUnsupportedVersionIsRefusedWith426() throws {
        let client = try XCTUnwrap(server).client()
        try client.sendRequest("GET", "/echo-ws", headers: [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "8"),
        ])
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 426)
        XCTAssertEqual(response.header("Sec-WebSocket-Version"), "13")
    }

    func testRefusedHandshakeThrowsFromTheClient() throws {
        let port = try XCTUnwrap(server).port
        XCTAssertThrowsError(try TestWebSocket(port: port, path: "/echo-ws", extraHeaders: [("Sec-WebSocket-Version", "8")])) { error in
            XCTAssertTrue(String(describing: error).contains("426"), "\(error)")
        }
    }
}
