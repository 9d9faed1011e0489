import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `/__mock/faults` seen from real clients: substitutes, malformed JSON, counting down, removal,
/// validation, and gateway message rules.
final class FaultTests: MockServerTestCase {
    private func rows(_ page: Int) throws -> TestResponse {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        return try server.request("GET", "/rows/\(page)", headers: [("authorization", login.jsonObject?["token"] as? String ?? "")])
    }

    func testStatusBodyAndHeadersReplaceTheAnswerAndTheHandlerDoesNotRun() throws {
        let id = try server.addFault(["method": "POST", "path": "/api/users/sms", "times": 1,
                                      "action": ["status": 503, "body": #"{"busy":true}"#, "headers": ["Retry-After": "7"]]])
        let r = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])
        XCTAssertEqual(r.status, 503)
        XCTAssertEqual(r.text, #"{"busy":true}"#)
        XCTAssertEqual(r.header("Retry-After"), "7")
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertTrue(server.outbox.sms().isEmpty, "the handler ran behind the fault")
        // times: 1 → gone after firing; the next request is answered normally.
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]).status, 200)
        let entries = try server.journal("path=/api/users/sms")
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [503, 200])
        let fault = try XCTUnwrap(entries[0]["fault"] as? [String: Any])
        XCTAssertEqual(fault["id"] as? Int, id)
        XCTAssertEqual((fault["action"] as? [String: Any])?["status"] as? Int, 503)
        XCTAssertNil(entries[1]["fault"])
    }

    func testTimesCountsDownAndGetShowsRemaining() throws {
        let counted = try server.addFault(["path": "/rows/*", "times": 2, "action": ["status": 500]])
        let forever = try server.addFault(["path": "/rsschool/*", "system": "rsschool", "action": ["status": 418, "body": "teapot"]])
        var rules = try XCTUnwrap(try server.request("GET", "/__mock/faults").jsonArray as? [[String: Any]])
        XCTAssertEqual(rules.map { $0["id"] as? Int }, [counted, forever])
        XCTAssertEqual(rules[0]["remaining"] as? Int, 2)
        XCTAssertTrue(rules[1]["remaining"] is NSNull)
        XCTAssertTrue(rules[1]["times"] is NSNull)
        XCTAssertEqual(try rows(1).status, 500)
        rules = try XCTUnwrap(try server.request("GET", "/__mock/faults").jsonArray as? [[String: Any]])
        XCTAssertEqual(rules[0]["remaining"] as? Int, 1)
        XCTAssertEqual(try rows(1).status, 500)
        XCTAssertEqual(try rows(1).status, 200)
        for _ in 0..<3 {
            let r = try server.request("POST", "/rsschool/secure", json: ["sequence": "132"])
            XCTAssertEqual(r.status, 418)
            XCTAssertEqual(r.header("Content-Type"), "text/plain; charset=utf-8")
        }
        XCTAssertEqual(try server.request("DELETE", "/__mock/faults/\(forever)", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("DELETE", "/__mock/faults/\(forever)", headers: TestServer.adminWrite).status, 404)
        XCTAssertEqual(try server.request("POST", "/rsschool/secure", json: ["sequence": "132"]).status, 200)
    }

    func testMalformedJSONKeepsTheStatusAndBreaksTheBody() throws {
        _ = try server.addFault(["path": "/auth/login", "action": ["malformedJSON": true]])
        let r = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertFalse(r.body.isEmpty)
        XCTAssertNil(JSON.parse(r.body), "the body still parses: \(r.text)")
    }

    func testMethodAndSystemNarrowARule() throws {
        _ = try server.addFault(["method": "GET", "path": "*", "system": "musbooking", "action": ["status": 502]])
        XCTAssertEqual(try rows(1).status, 200, "another system")
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]).status, 200, "another method")
        XCTAssertEqual(try server.request("GET", "/API/Users/User").status, 502, "paths match in any case")
        XCTAssertEqual(try server.request("DELETE", "/__mock/faults", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/api/users/user").status, 401)
    }

    func testAdminPathsCannotBeFaulted() throws {
        _ = try server.addFault(["path": "*", "action": ["status": 500]])
        XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
        XCTAssertEqual(try server.request("GET", "/__mock/faults").status, 200)
        XCTAssertEqual(try rows(1).status, 500)
        let r = try server.request("POST", "/__mock/faults", json: ["path": "/__mock/reset", "action": ["status": 500]])
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.jsonObject?["error"] as? String, "admin paths (/__mock/…) cannot be faulted")
    }

    func testInvalidRulesAre400WithAReason() throws {
        let bad: [Any] = [
            ["action": ["status": 500]],
            ["path": "/rows/1"],
            ["path": "/rows/1", "action": [:] as [String: Any]],
            ["path": "/rows/1", "action": ["status": 99]],
            ["path": "/rows/1", "action": ["status": 500, "close": true]],
            ["path": "/rows/1", "action": ["close": false]],
            ["path": "/rows/1", "action": ["delayMs": -1]],
            ["path": "/rows/1", "action": ["delayMs": 1.5]],
            ["path": "/rows/1", "times": 0, "action": ["close": true]],
            ["path": "/rows/1", "system": "nosuch", "action": ["close": true]],
            ["path": "/rows/1", "method": "FETCH", "action": ["close": true]],
            ["path": "rows", "action": ["close": true]],
            ["path": "/rows/1", "action": ["reply": "x"]],
            ["path": "LOGIN_CUSTOMER", "system": "gateway", "action": ["truncate": true]],
            ["path": "LOGIN_CUSTOMER", "system": "gateway", "action": ["closeCode": 1005]],
            ["path": "/rows/1", "action": ["status": 500, "headers": ["Bad Name": "x"]]],
            ["path": "/rows/1", "color": "red", "action": ["close": true]],
            [1, 2],
        ]
        for rule in bad {
            let r = try server.request("POST", "/__mock/faults", json: rule)
            XCTAssertEqual(r.status, 400, "\(rule): \(r.text)")
            XCTAssertFalse((r.jsonObject?["error"] as? String ?? "").isEmpty, "\(rule)")
        }
        XCTAssertEqual(try server.request("POST", "/__mock/faults", jsonText: "{not json").status, 400)
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
    }

    /// The transport honours these after the merge of the new connection state machine; here the
    /// rule's effect on the response handed to the transport is checked in-process.
    func testDelayCloseResetAndTruncateSetTheDelivery() throws {
        let cases: [([String: Any], Delivery)] = [
            (["delayMs": 250], Delivery(delayNanos: 250_000_000, action: .send)),
            (["close": true], Delivery(action: .close)),
            (["reset": true], Delivery(action: .reset)),
            (["truncate": true], Delivery(action: .truncate)),
        ]
        for (action, delivery) in cases {
            _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": action])
            var context = RequestContext()
            let response = server.responder.respond(to: HTTPRequest(method: .post, target: "/rsschool/secure", body: Array(#"{"sequence": "132"}"#.utf8)), in: &context)
            XCTAssertEqual(context.delivery, delivery, "\(action)")
            // A held answer is journaled when the transport sends it: here the test is the transport.
            XCTAssertEqual(context.delivery.onSent != nil, delivery.delayNanos != 0, "\(action)")
            context.delivery.onSent?(response)
        }
        let entries = try server.journal("path=/rsschool/secure")
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [200, nil, nil, 200])
        XCTAssertEqual(entries.map { (($0["fault"] as? [String: Any])?["action"] as? [String: Any])?.keys.first },
                       ["delayMs", "close", "reset", "truncate"])
        XCTAssertEqual((entries[0]["fault"] as? [String: Any]).flatMap { ($0["action"] as? [String: Any])?["delayMs"] as? Int }, 250)
    }

    func testGatewayRulesReplyInsteadOrStaySilent() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_*", "times": 1, "action": ["reply": #"{"type":"MAINTENANCE"}"#]])
        _ = try server.addFault(["system": "gateway", "path": "PING", "times": 1, "action": ["noReply": true]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        let login = #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"123123"}}"#
        try ws.send(text: login)
        XCTAssertEqual(try ws.receiveMessage(), .text(#"{"type":"MAINTENANCE"}"#))
        try ws.send(text: #"{"type":"PING","sequence_id":"2"}"#)
        try ws.send(text: login)
        // The PING got no reply: the next frame is the second login's normal answer.
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN")
        XCTAssertEqual(JSONValue.parse(reply)?["sequence_id"]?.string, "1")
        let entries = try server.journal("system=gateway")
        XCTAssertEqual(entries.map { $0["path"] as? String }, ["LOGIN_CUSTOMER", "PING", "LOGIN_CUSTOMER"])
        XCTAssertEqual(entries.map { (($0["fault"] as? [String: Any])?["action"] as? [String: Any])?.keys.first },
                       ["reply", "noReply", nil])
        XCTAssertEqual((entries[0]["fault"] as? [String: Any]).flatMap { ($0["action"] as? [String: Any])?["reply"] as? String }, #"{"type":"MAINTENANCE"}"#)
        XCTAssertEqual(entries[1]["responseBody"] as? String, "")
    }
}
