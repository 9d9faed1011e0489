import Foundation
import HTTPServer
import Routes
import EmulationKit
import MockControl
import MockTestSupport
import TestSupport
import XCTest

/// `GET /__mock/requests.har` over real sockets: a HAR 1.2 document Chrome's devtools import,
/// field by field, showing what the journal shows and never more.
final class JournalHARTests: MockServerTestCase {
    private func har(_ query: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try server.request("GET", "/__mock/requests.har" + (query.isEmpty ? "" : "?" + query))
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        return r.jsonObject?["log"] as? [String: Any] ?? [:]
    }

    private func pairs(_ value: Any?) -> [String] {
        (value as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "?")=\($0["value"] as? String ?? "?")" }
    }

    func testAJSONRequestIsExportedFieldByFieldWithItsSecretsRedacted() throws {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        XCTAssertEqual(login.status, 200, login.text)
        let log = try har()
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertEqual((log["creator"] as? [String: Any])?["name"] as? String, "mock-server")
        XCTAssertEqual((log["creator"] as? [String: Any])?["version"] as? String, MockServerVersion.current)
        let entries = log["entries"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.count, 1)
        let entry = try XCTUnwrap(entries.first)
        XCTAssertEqual(entry["startedDateTime"] as? String, "2027-01-15T08:00:00.000Z")
        let time = try XCTUnwrap(entry["time"] as? Double)
        XCTAssertGreaterThanOrEqual(time, 0)
        XCTAssertEqual((entry["cache"] as? [String: Any])?.count, 0)
        let timings = try XCTUnwrap(entry["timings"] as? [String: Any])
        XCTAssertEqual(timings["send"] as? Double, 0)
        XCTAssertEqual(timings["wait"] as? Double, time, "time is the sum of the timings")
        XCTAssertEqual(timings["receive"] as? Double, 0)

        let request = try XCTUnwrap(entry["request"] as? [String: Any])
        XCTAssertEqual(request["method"] as? String, "POST")
        XCTAssertEqual(request["url"] as? String, "http://127.0.0.1:\(server.port)/auth/login")
        XCTAssertEqual(request["httpVersion"] as? String, "HTTP/1.1")
        XCTAssertTrue(pairs(request["headers"]).contains("Content-Type=application/json"), "\(pairs(request["headers"]))")
        XCTAssertTrue(pairs(request["headers"]).contains("Host=127.0.0.1:\(server.port)"))
        XCTAssertEqual(pairs(request["queryString"]), [])
        XCTAssertEqual((request["cookies"] as? [Any])?.count, 0)
        XCTAssertEqual(request["headersSize"] as? Int, -1)
        let sentBody = try JSONSerialization.data(withJSONObject: ["email": "johndown@exmample.com", "password": "1234567"])
        XCTAssertEqual(request["bodySize"] as? Int, sentBody.count)
        let postData = try XCTUnwrap(request["postData"] as? [String: Any])
        XCTAssertEqual(postData["mimeType"] as? String, "application/json")
        let posted = try XCTUnwrap(postData["text"] as? String)
        XCTAssertTrue(posted.contains("johndown@exmample.com"))
        XCTAssertFalse(posted.contains("1234567"), "the password is redacted as the journal redacts it: \(posted)")

        let response = try XCTUnwrap(entry["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 200)
        XCTAssertEqual(response["statusText"] as? String, "OK")
        XCTAssertEqual(response["httpVersion"] as? String, "HTTP/1.1")
        XCTAssertTrue(pairs(response["headers"]).contains { $0.hasPrefix("Content-Type=application/json") }, "\(pairs(response["headers"]))")
        XCTAssertEqual((response["cookies"] as? [Any])?.count, 0)
        XCTAssertEqual(response["redirectURL"] as? String, "")
        XCTAssertEqual(response["headersSize"] as? Int, -1)
        XCTAssertEqual(response["bodySize"] as? Int, login.body.count)
        let content = try XCTUnwrap(response["content"] as? [String: Any])
        XCTAssertEqual(content["size"] as? Int, login.body.count)
        XCTAssertTrue((content["mimeType"] as? String ?? "").hasPrefix("application/json"))
        XCTAssertNil(content["encoding"], "UTF-8 text is exported as text")
        let journaled = try server.journal().first?["responseBody"] as? String
        XCTAssertEqual(content["text"] as? String, journaled, "the answer as the journal shows it (its tokens masked)")
        XCTAssertNotEqual(content["text"] as? String, login.text, "a token in the answer is masked")
    }

    func testABinaryAnswerIsBase64AndTheQueryIsRedacted() throws {
        let bytes: [UInt8] = [0xFF, 0x00, 0x01, 0xFE, 0x80]
        let mapping: [String: Any] = [
            "request": ["method": "GET", "url": "/blob?x=1&password=hunter2"],
            "response": ["status": 200, "base64Body": Data(bytes).base64EncodedString(), "headers": ["Content-Type": "application/octet-stream"]],
        ]
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", json: mapping).status, 201)
        let blob = try server.request("GET", "/blob?x=1&password=hunter2", headers: [("Host", "mock.test:8080"), ("Authorization", "Bearer abcdefgh-1234")])
        XCTAssertEqual(blob.body, bytes)
        _ = try server.request("GET", "/rows/1")

        let all = try XCTUnwrap(try har()["entries"] as? [[String: Any]])
        XCTAssertEqual(all.count, 2)
        let entries = try XCTUnwrap(try har("limit=1&path=/blob")["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 1, "the journal's filters apply")
        let request = try XCTUnwrap(entries.first?["request"] as? [String: Any])
        XCTAssertEqual(request["url"] as? String, "http://mock.test:8080/blob?x=1&password=***", "the Host header's authority; the secret redacted")
        XCTAssertEqual(pairs(request["queryString"]), ["x=1", "password=***"])
        XCTAssertTrue(pairs(request["headers"]).contains("Authorization=Bearer abcd…"), "\(pairs(request["headers"]))")
        XCTAssertNil(request["postData"], "no body, no postData")
        XCTAssertEqual(request["bodySize"] as? Int, 0)
        let response = try XCTUnwrap(entries.first?["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 200)
        XCTAssertTrue(pairs(response["headers"]).contains("Content-Type=application/octet-stream"), "\(pairs(response["headers"]))")
        let content = try XCTUnwrap(response["content"] as? [String: Any])
        XCTAssertEqual(content["encoding"] as? String, "base64")
        XCTAssertEqual(content["text"] as? String, Data(bytes).base64EncodedString())
        XCTAssertEqual(content["size"] as? Int, bytes.count)
        XCTAssertEqual(content["mimeType"] as? String, "application/octet-stream")

        XCTAssertEqual(try server.request("GET", "/__mock/requests.har?limit=0").status, 400)
        XCTAssertEqual(try server.request("GET", "/__mock/requests.har?colour=red").status, 400)
    }

    func testALongBodyIsShownCutAsTheJournalShowsItWithItsWholeSize() throws {
        let long = String(repeating: "y", count: 5000)
        let mapping: [String: Any] = ["request": ["method": "GET", "url": "/long"], "response": ["status": 200, "body": long]]
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", json: mapping).status, 201)
        XCTAssertEqual(try server.request("GET", "/long").text, long)
        let entry = try XCTUnwrap((try har()["entries"] as? [[String: Any]])?.first)
        let response = try XCTUnwrap(entry["response"] as? [String: Any])
        let content = try XCTUnwrap(response["content"] as? [String: Any])
        XCTAssertEqual(content["size"] as? Int, 5000)
        XCTAssertEqual(response["bodySize"] as? Int, 5000)
        XCTAssertEqual((content["text"] as? String)?.count, JournalEntry.bodyLimit)
        XCTAssertEqual(entry["comment"] as? String, "bodies cut by the journal at 4096 bytes")
    }

    func testAnEmptyJournalIsAnEmptyLog() throws {
        let log = try har()
        XCTAssertEqual((log["entries"] as? [Any])?.count, 0)
        XCTAssertEqual((log["pages"] as? [Any])?.count, 0)
    }

    func testWebSocketMessagesAreLeftOutAndTimesKeepTheirMilliseconds() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000.042)
        let message = JournalEntry(webSocketMessage: WebSocketPayload(utf8Text: Array(#"{"type":"PING"}"#.utf8)), replies: [], system: "gateway", at: at,
                                   durationNanos: 1_500_000, fault: nil)
        let http = JournalEntry(at: at, durationNanos: 2_250_000, system: nil, method: "GET", path: "/a", query: "", status: 204,
                                requestHeaders: HTTPHeaders(), requestBody: [], responseBody: [], hint: nil, fault: nil)
        let entries = JournalHAR.document([message, http], reading: EntryReading())["log"]?["entries"]
        guard case .array(let list)? = entries else { return XCTFail("no entries") }
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["request"]?["url"]?.string, "http://127.0.0.1/a", "no Host header: the loopback address")
        XCTAssertEqual(list.first?["startedDateTime"]?.string, "2027-01-15T08:00:00.042Z")
        XCTAssertEqual(list.first?["time"], JSONValue.number(2.25))
        XCTAssertEqual(list.first?["response"]?["statusText"]?.string, "No Content")
    }
}
