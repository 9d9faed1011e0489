import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Every change of state a test makes through the admin API is an event on `/__mock/events`
/// (what the console follows live), seen over a real WebSocket.
final class StateChangeEventsTests: MockServerTestCase {
    /// The next event that is not a journal entry (`request`), as `(kind, data)`.
    private func next(_ ws: TestWebSocket, file: StaticString = #filePath, line: UInt = #line) throws -> (String, [String: Any]) {
        while true {
            guard case .text(let text) = try ws.receiveMessage() else { throw TestClientError("a binary event") }
            let object = try XCTUnwrap(JSON.parseObject(Array(text.utf8)), text, file: file, line: line)
            let kind = object["kind"] as? String ?? ""
            if kind != "request" { return (kind, object["data"] as? [String: Any] ?? [:]) }
        }
    }

    private func write(_ method: String, _ path: String, json: [String: Any]? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> TestResponse {
        let r = try json.map { try server.request(method, path, json: $0) } ?? server.request(method, path, headers: TestServer.adminWrite)
        XCTAssertLessThan(r.status, 300, "\(method) \(path): \(r.text)", file: file, line: line)
        return r
    }

    func testFaultsAccountsInstancesOutboxJournalAndStateChangesAreEvents() throws {
        let ws = try TestWebSocket(port: server.port, path: "/__mock/events")

        let fault = try write("POST", "/__mock/faults", json: ["path": "/nowhere/*", "times": 1, "action": ["status": 503]])
        let faultId = try XCTUnwrap(fault.jsonObject?["id"] as? Int)
        var (kind, data) = try next(ws)
        XCTAssertEqual(kind, "fault.added")
        XCTAssertEqual(data["id"] as? Int, faultId)
        XCTAssertEqual(data["remaining"] as? Int, 1)
        XCTAssertEqual(try server.request("GET", "/nowhere/1").status, 503)
        (kind, _) = try next(ws)
        XCTAssertEqual(kind, "fault", "the fired fault, as before")
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "fault.usedUp")
        XCTAssertEqual(data["id"] as? Int, faultId)

        let second = try write("POST", "/__mock/faults", json: ["path": "/nowhere/*", "action": ["delayMs": 5]])
        _ = try next(ws)
        _ = try write("DELETE", "/__mock/faults/\(second.jsonObject?["id"] as? Int ?? 0)")
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "fault.removed")
        XCTAssertEqual(data["ids"] as? [Int], [second.jsonObject?["id"] as? Int ?? -1])

        _ = try write("POST", "/__mock/accounts", json: ["system": "rows", "email": "qa@example.com", "password": "pw1"])
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "account.created")
        XCTAssertEqual(data["system"] as? String, "rows")
        XCTAssertEqual((data["account"] as? [String: Any])?["login"] as? String, "qa@example.com")
        _ = try write("DELETE", "/__mock/accounts/rows/qa@example.com")
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "account.deleted")
        XCTAssertEqual(data["id"] as? String, "qa@example.com")

        let instance = try write("POST", "/__mock/instances", json: [:])
        let instanceId = try XCTUnwrap(instance.jsonObject?["id"] as? String)
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "instance.started")
        XCTAssertEqual(data["id"] as? String, instanceId)
        _ = try write("DELETE", "/__mock/instances/\(instanceId)")
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "instance.stopped")
        XCTAssertEqual(data["id"] as? String, instanceId)

        _ = try write("DELETE", "/__mock/sms")
        (kind, data) = try next(ws)
        XCTAssertEqual(kind, "outbox.cleared")
        XCTAssertEqual(data["part"] as? String, "sms")
        _ = try write("DELETE", "/__mock/requests")
        XCTAssertEqual(try next(ws).0, "journal.cleared")

        let document = try server.request("GET", "/__mock/state")
        XCTAssertEqual(document.status, 200)
        let put = try server.request("PUT", "/__mock/state", headers: [("Content-Type", "application/json")], body: document.body)
        XCTAssertEqual(put.status, 204, put.text)
        XCTAssertEqual(try next(ws).0, "state.replaced")
    }
}
