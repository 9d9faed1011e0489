import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// API.md revision 3, §6.1 and the verify filters of §6.3, over real sockets: faults on the
/// gateway's handshake, `{{sequence_id}}` in scripted replies, rules that can never fire and
/// filters of the wrong type refused, `?body=`, `?hint=` and `/__mock/requests/count`.
final class Revision3ControlTests: MockServerTestCase {
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

    func testRulesThatCanNeverFireAreRefusedAndNothingIsAdded() throws {
        let never: [[String: Any]] = [
            ["system": "rows", "path": "/api/users/sms", "action": ["status": 500]],
            ["system": "skyzone", "path": "/rows/*", "action": ["status": 500]],
            ["system": "musbooking", "path": "/feature-flags", "action": ["status": 200]],
            ["method": "WS", "path": "/rows/1", "action": ["status": 500]],
            ["system": "gateway", "path": "/customer-gateway/customer", "action": ["truncate": true]],
            ["path": "/customer-gateway/customer", "action": ["malformedJSON": true]],
            ["path": "/__mock/health", "action": ["status": 500]],
            ["path": "/rows/1", "times": 0, "action": ["status": 500]],
            ["system": "rows", "path": "LOGIN_CUSTOMER", "action": ["status": 500]],
        ]
        for rule in never {
            let r = try server.request("POST", "/__mock/faults", json: rule)
            XCTAssertEqual(r.status, 400, "\(rule): \(r.text)")
            XCTAssertNotNil(r.jsonObject?["error"] as? String)
        }
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
        // Rules that can fire still pass: a rows rule on /rows and /auth/x, a stub, a pattern.
        for rule: [String: Any] in [["system": "rows", "path": "/rows", "action": ["status": 500]],
                                    ["system": "rows", "path": "/auth/x", "action": ["status": 500]],
                                    ["path": "/feature-flags", "action": ["status": 200, "body": "{}"]],
                                    ["system": "musbooking", "path": "/API/*", "action": ["delayMs": 1]],
                                    ["path": "*", "action": ["truncate": true]]] {
            XCTAssertEqual(try server.request("POST", "/__mock/faults", json: rule).status, 201, "\(rule)")
        }
    }

    func testFiltersOfTheWrongTypeAre400() throws {
        for bad in ["status=", "status=abc", "since=", "limit=", "system=", "system=nope", "method=", "path=", "hint=yes", "body=",
                    "atLeast=1"] {
            let r = try server.request("GET", "/__mock/requests?\(bad)")
            XCTAssertEqual(r.status, 400, "\(bad): \(r.text)")
            XCTAssertNotNil(r.jsonObject?["error"] as? String, bad)
        }
        for bad in ["status=", "atLeast=-1", "atLeast=x", "color=red"] {
            XCTAssertEqual(try server.request("GET", "/__mock/requests/count?\(bad)").status, 400, bad)
        }
    }

    func testBodyAndHintFiltersAndCount() throws {
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9120000000")])
        _ = try server.request("POST", "/api/auth/login", form: [("login", "Test005"), ("password", "123456")])
        _ = try server.request("GET", "/rows/1", headers: [("Authorization", "Bearer x")])
        XCTAssertEqual(try server.journal("body=9123456789").map { $0["path"] as? String }, ["/api/users/sms"])
        // The body is searched after redaction: a password cannot be fished for.
        XCTAssertEqual(try server.journal("body=password%3D123456").count, 0)
        XCTAssertEqual(try server.journal("body=password%3D***").count, 1)
        XCTAssertEqual(try server.journal("hint=true").map { $0["path"] as? String }, ["/rows/1"])
        XCTAssertEqual(try server.journal("hint=false").count, 3)

        var r = try server.request("GET", "/__mock/requests/count")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.jsonObject?["count"] as? Int, 4)
        r = try server.request("GET", "/__mock/requests/count?system=musbooking&path=/api/users/sms&body=912")
        XCTAssertEqual(r.jsonObject?["count"] as? Int, 2)
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?status=403&hint=true").jsonObject?["count"] as? Int, 1)
        let first = try server.journal().first?["id"] as? Int ?? 0
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?since=\(first)").jsonObject?["count"] as? Int, 3)
        // Counting is not limited by the journal page size.
        for _ in 0..<120 { _ = try server.request("GET", "/__mock/health") }
        for _ in 0..<101 { _ = try server.request("GET", "/rows/2") }
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?path=/rows/2").jsonObject?["count"] as? Int, 101)
    }

    func testEveryOperationHasAnOperationIdAndEveryRequestBodyAnExample() throws {
        let document = try XCTUnwrap(server.request("GET", "/__mock/openapi.json").jsonObject)
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        var ids: [String] = []
        for (path, operations) in paths {
            for (method, value) in operations {
                let operation = try XCTUnwrap(value as? [String: Any])
                let id = operation["operationId"] as? String ?? ""
                XCTAssertFalse(id.isEmpty, "\(method) \(path)")
                ids.append(id)
                let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: Any] ?? [:]
                for (type, media) in content {
                    XCTAssertNotNil((media as? [String: Any])?["example"], "\(method) \(path) \(type)")
                }
            }
        }
        XCTAssertEqual(Set(ids).count, ids.count, "operationIds are unique")
        XCTAssertTrue(ids.contains("postApiUsersSms"))
        XCTAssertTrue(ids.contains("deleteMockInstancesById"))
        XCTAssertTrue(paths["/__mock/requests/count"] != nil && paths["/__mock/state"] != nil && paths["/__mock/instances"] != nil)
    }
}
