import Foundation
import HTTPServer
import MockTestSupport
import TestSupport
import XCTest

/// A HAR 1.2 document imported as stubs (`POST /__admin/mappings/import-har`): this server's own
/// export round-trips, and a browser's (absolute URLs, base64 content, pseudo-fields, a blocked
/// request) replays as it was answered.
final class StubHARImportTests: MockServerTestCase {
    func testTheJournalsHARExportImportsBackAsStubsThatAnswerTheSame() throws {
        let added = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/greeting?lang=en"}, "response": {"status": 201, "headers": {"Content-Type": "text/plain", "X-Kind": "hello"}, "body": "hi there"}}"#)
        XCTAssertEqual(added.status, 201, added.text)
        XCTAssertEqual(try server.request("GET", "/greeting?lang=en").status, 201)
        let har = try server.request("GET", "/__mock/requests.har?path=/greeting")
        XCTAssertEqual(har.status, 200, har.text)
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings").status, 200)
        XCTAssertEqual(try server.request("GET", "/greeting?lang=en").status, 404, "no stub left")
        let imported = try server.request("POST", "/__admin/mappings/import-har", jsonText: har.text)
        XCTAssertEqual(imported.status, 200, imported.text)
        let mappings = try XCTUnwrap(imported.jsonObject?["mappings"] as? [[String: Any]])
        XCTAssertEqual(mappings.count, 1, imported.text)
        let replay = try server.request("GET", "/greeting?lang=en")
        XCTAssertEqual(replay.status, 201)
        XCTAssertEqual(replay.text, "hi there")
        XCTAssertEqual(replay.header("X-Kind"), "hello")
        XCTAssertNotNil(replay.header("Matched-Stub-Id"), "answered by the imported stub")
    }

    func testABrowsersHARReplaysItsAnswers() throws {
        let document = #"""
        {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
          {"request": {"method": "GET", "url": "https://api.example.com/v1/items?page=2#top", "headers": []},
           "response": {"status": 200, "headers": [{"name": ":status", "value": "200"}, {"name": "content-type", "value": "application/json"},
                                                   {"name": "content-encoding", "value": "br"}],
                        "content": {"mimeType": "application/json", "text": "eyJpdGVtcyI6IFsxXX0=", "encoding": "base64"}}},
          {"request": {"method": "GET", "url": "https://ads.example.com/pixel"},
           "response": {"status": 0, "headers": [], "content": {}}},
          {"request": {"method": "GET", "url": "wss://api.example.com/live"},
           "response": {"status": 101, "headers": [], "content": {}}}
        ]}}
        """#
        let imported = try server.request("POST", "/__admin/mappings/import-har", jsonText: document)
        XCTAssertEqual(imported.status, 200, imported.text)
        XCTAssertEqual((imported.jsonObject?["mappings"] as? [Any])?.count, 1, "the blocked request (status 0) and the WebSocket (101) make no stub")
        let replay = try server.request("GET", "/v1/items?page=2")
        XCTAssertEqual(replay.status, 200)
        XCTAssertEqual(replay.text, #"{"items": [1]}"#)
        XCTAssertEqual(replay.header("Content-Type"), "application/json")
        XCTAssertNil(replay.header("Content-Encoding"), "a HAR holds the decoded body: its coding is not replayed")
    }

    func testWhatIsNotHARIsRefusedNamingThePlace() throws {
        let notHAR = try server.request("POST", "/__admin/mappings/import-har", jsonText: #"{"mappings": []}"#)
        XCTAssertEqual(notHAR.status, 422, notHAR.text)
        XCTAssertTrue(notHAR.text.contains("/log/entries"), notHAR.text)
        let badStatus = try server.request("POST", "/__admin/mappings/import-har",
                                           jsonText: #"{"log": {"entries": [{"request": {"method": "GET", "url": "/x"}, "response": {"status": "ok"}}]}}"#)
        XCTAssertEqual(badStatus.status, 422, badStatus.text)
        XCTAssertTrue(badStatus.text.contains("/log/entries/0/response/status"), badStatus.text)
        let badURL = try server.request("POST", "/__admin/mappings/import-har",
                                        jsonText: #"{"log": {"entries": [{"request": {"method": "GET", "url": "ftp://x/y"}, "response": {"status": 200}}]}}"#)
        XCTAssertEqual(badURL.status, 422, badURL.text)
        XCTAssertTrue(badURL.text.contains("/log/entries/0/request/url"), badURL.text)
        let left = try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [Any]
        XCTAssertEqual(left?.count, 0, "nothing added")
    }
}
