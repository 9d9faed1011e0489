import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Faults on the gateway's WebSocket, over real sockets: on its handshake (status, close, delay),
/// and scripted replies carrying the request's `sequence_id`.
final class WebSocketFaultTests: MockServerTestCase {
    private let handshake = "GET /customer-gateway/customer HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    func testAStatusFaultOnTheGatewayPathAnswersTheHandshakeInsteadOf101() throws {
        _ = try server.addFault(["system": "gateway", "path": "/customer-gateway/customer", "times": 1,
                                 "action": ["status": 503, "body": "down"]])
        let client = try server.connect()
        try client.send(handshake)
        let refused = try client.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.text, "down")
        let entry = try server.journal("system=gateway").last
        XCTAssertEqual(entry?["status"] as? Int, 503)
        XCTAssertNotNil(entry?["fault"], "the entry names the fault")
        // Used up: the next handshake is a WebSocket again.
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN")
    }

    func testCloseOnTheHandshakeDropsTheConnectionAndAPatternWithoutSystemActsToo() throws {
        _ = try server.addFault(["path": "/customer-gateway/*", "times": 1, "action": ["close": true]])
        let client = try server.connect()
        try client.send(handshake)
        let (bytes, _) = FaultDeliveryTests.readToEnd(client.fd)
        XCTAssertEqual(bytes, [], "closed without an answer")
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
    }

    func testADelayOnTheHandshakeHoldsThe101() throws {
        _ = try server.addFault(["system": "gateway", "path": "/customer-gateway/customer", "times": 1, "action": ["delayMs": 60_000]])
        let fired = server.app.control.events.subscribe()
        defer { fired.cancel() }
        let client = try server.connect()
        try client.send(handshake)
        XCTAssertEqual(fired.next(timeout: 5)?.kind, "fault")
        // Other handshakes are served meanwhile; the held one has not been answered.
        XCTAssertNoThrow(try TestWebSocket(port: server.port, path: "/customer-gateway/customer"))
        var byte: UInt8 = 0
        XCTAssertEqual(recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT)), -1, "the 101 is held")
    }

    func testAShortHandshakeDelayEndsInAWorkingWebSocket() throws {
        _ = try server.addFault(["system": "gateway", "path": "/customer-gateway/customer", "times": 1, "action": ["delayMs": 20]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"7","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["sequence_id"]?.string, "7")
    }

    func testAScriptedReplyCarriesTheRequestsSequenceIdAsJSON() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 3,
                                 "action": ["reply": #"{"type":"MAINTENANCE","sequence_id":{{sequence_id}},"data":{}}"#]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"AB-1","data":{}}"#)
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":42,"data":{}}"#)
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","data":{}}"#)
        var ids: [JSONValue?] = []
        for _ in 0..<3 {
            guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no reply") }
            XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "MAINTENANCE", reply)
            ids.append(JSONValue.parse(reply)?["sequence_id"])
        }
        XCTAssertEqual(ids[0]?.string, "AB-1", "a string stays quoted")
        XCTAssertEqual(ids[1], .number(42), "a number stays a number")
        XCTAssertEqual(ids[2]?.string?.count, 36, "none given: a fresh UUID, as the gateway answers")
    }
}
