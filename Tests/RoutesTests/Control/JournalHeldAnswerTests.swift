import Foundation
import HTTPServer
@testable import Routes
import MockControl
import MockTestSupport
import TestSupport
import XCTest

/// A held answer (a fault's delay, a gateway reply's delay) is journaled when it goes out, with
/// the time it was held: the entry is not there before the answer was sent.
final class JournalHeldAnswerTests: MockServerTestCase {
    private let secure = Array(#"{"sequence": "132"}"#.utf8)
    private let json = [("Content-Type", "application/json")]

    func testADelayedAnswersEntryCountsTheDelay() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["delayMs": 150]])
        XCTAssertEqual(try server.request("POST", "/rsschool/secure", headers: json, body: secure).status, 200)
        let entry = try XCTUnwrap(try server.journal("path=/rsschool/secure").first)
        XCTAssertEqual(entry["status"] as? Int, 200)
        // The answer took at least its delay to go out; the entry was made when it went.
        XCTAssertGreaterThanOrEqual(entry["durationMs"] as? Double ?? 0, 150, "\(entry)")
    }

    /// While the answer is held, no entry; once its client goes away (the answer never sent),
    /// the entry comes, so the journal still shows every request the mock answered.
    func testAHeldAnswersEntryIsNotThereBeforeItIsSent() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["delayMs": 60_000]])
        let fired = server.app.control.events.subscribe()
        defer { fired.cancel() }
        var held: TestHTTPClient? = try server.connect()
        try held?.sendRequest("POST", "/rsschool/secure", headers: json, body: secure)
        XCTAssertEqual(fired.next(timeout: 5)?.kind, "fault")
        // The handler has returned (the fault fires around it) and the answer is held for a minute.
        XCTAssertEqual(try server.journal("path=/rsschool/secure").count, 0, "no entry before the answer is sent")
        held = nil   // the client goes away
        XCTAssertNil(held)
        let after = try server.request("GET", "/__mock/requests?path=/rsschool/secure&waitMs=5000")
        let entries = try XCTUnwrap(after.jsonArray as? [[String: Any]])
        XCTAssertEqual(entries.count, 1, after.text)
        XCTAssertEqual(entries.first?["status"] as? Int, 200)
    }

    /// Entries follow the order answers went out: an answer pipelined behind a held one is
    /// journaled after it.
    func testAnAnswerPipelinedBehindAHeldOneIsJournaledAfterIt() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["delayMs": 30]])
        let client = try server.connect()
        let wrong = Array(#"{"sequence": "123"}"#.utf8)
        let head = { (count: Int) in "POST /rsschool/secure HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(count)\r\n\r\n" }
        try client.send(Array(head(secure.count).utf8) + secure + Array(head(wrong.count).utf8) + wrong)
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertEqual(try client.readResponse().status, 401)
        let entries = try server.journal("path=/rsschool/secure")
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [200, 401])
        let ids = entries.compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertGreaterThanOrEqual(entries.last?["durationMs"] as? Double ?? 0, 30, "it waited behind the held answer")
    }

    func testAStubsDelayedAnswerIsJournaledWithItsStubAndDelay() throws {
        let added = try server.request("POST", "/__admin/mappings",
                                       jsonText: #"{"request": {"url": "/slow"}, "response": {"status": 418, "body": "late", "fixedDelayMilliseconds": 120}}"#)
        XCTAssertEqual(added.status, 201, added.text)
        XCTAssertEqual(try server.request("GET", "/slow").status, 418)
        let entry = try XCTUnwrap(try server.journal("path=/slow").first)
        XCTAssertEqual(entry["status"] as? Int, 418)
        XCTAssertEqual(entry["responseBody"] as? String, "late")
        XCTAssertNotNil(entry["stub"], "\(entry)")
        XCTAssertGreaterThanOrEqual(entry["durationMs"] as? Double ?? 0, 120, "\(entry)")
    }

    func testADelayedGatewayRepliesEntryCountsTheDelay() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["delayMs": 150]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
        let entry = try XCTUnwrap(try server.journal("system=gateway").first)
        // The reply that was sent (its token redacted in the journal).
        let sent = JSONValue.parse(reply), journaled = JSONValue.parse(entry["responseBody"] as? String ?? "")
        XCTAssertEqual(journaled?["type"]?.string, sent?["type"]?.string)
        XCTAssertEqual(journaled?["sequence_id"]?.string, "1")
        XCTAssertGreaterThanOrEqual(entry["durationMs"] as? Double ?? 0, 150, "\(entry)")
    }
}

/// Under `--state` a change's answer waits for the disk: its entry is the answer that went out,
/// a 503 with its hint when the file did not take the change, on the journal and the events stream.
final class JournalDurabilityTests: TemporaryDirectoryTestCase {
    func testARefusedChangeIsJournaledAsThe503ItGot() throws {
        let server = try TestServer()
        defer { server.stop() }
        let persistence = try MockPersistence.start(app: server.app, server: server.server, statePath: statePath,
                                                    watchSeed: nil, logger: .silent)
        defer { persistence.close() }
        let store = try XCTUnwrap(persistence.store)
        store.logged.simulatedFailure.withLock { $0 = "No space left on device" }
        let events = server.app.control.events.subscribe()
        defer { events.cancel() }
        let refused = try server.request("POST", "/api/users/sms", form: [("phone", "9030000002")])
        XCTAssertEqual(refused.status, 503)
        let entry = try XCTUnwrap(try server.journal("path=/api/users/sms").first)
        XCTAssertEqual(entry["status"] as? Int, 503, "\(entry)")
        XCTAssertEqual(entry["hint"] as? String, refused.header("X-Mock-Hint"))
        XCTAssertEqual(entry["responseBody"] as? String, refused.text)
        var request: MockEvent?
        for _ in 0..<20 where request == nil {
            guard let event = events.next(timeout: 5) else { break }
            if event.kind == "request" { request = event }
        }
        let event = try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(request).json)) as? [String: Any]
        XCTAssertEqual((event?["data"] as? [String: Any])?["status"] as? Int, 503, "the console is told the answer that was sent")
        store.logged.simulatedFailure.withLock { $0 = nil }
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9030000003")]).status, 200)
        XCTAssertEqual(try server.journal("path=/api/users/sms").map { $0["status"] as? Int }, [503, 200])
    }
}
