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

    /// A gzip answer is exported decoded (HAR 1.2 holds the decoded body), kept as a stub decoded
    /// (as WireMock's recorder keeps it), and both replay the text without a Content-Encoding.
    func testAGzipAnswerIsExportedAndKeptDecoded() throws {
        let gzip = "H4sIAAAAAAACA0vOzy0oSi0uTk1RyEjNycnXUUhGEwEAOnHReSIAAAA="
        let plain = "compressed hello, compressed hello"
        let added = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/zipped"}, "response": {"status": 200, "headers": {"Content-Type": "text/plain", "Content-Encoding": "gzip"}, "base64Body": "\#(gzip)"}}"#)
        XCTAssertEqual(added.status, 201, added.text)
        let compressed = Array(try XCTUnwrap(Data(base64Encoded: gzip)))
        let sent = try server.request("GET", "/zipped")
        XCTAssertEqual(sent.header("Content-Encoding"), "gzip")
        XCTAssertEqual(sent.body, compressed, "sent as the stub has it")
        let har = try server.request("GET", "/__mock/requests.har?path=/zipped")
        let entries = try XCTUnwrap((har.jsonObject?["log"] as? [String: Any])?["entries"] as? [[String: Any]], har.text)
        let content = try XCTUnwrap((entries.first?["response"] as? [String: Any])?["content"] as? [String: Any])
        XCTAssertEqual(content["text"] as? String, plain)
        XCTAssertNil(content["encoding"])
        XCTAssertEqual(content["size"] as? Int, plain.utf8.count)
        XCTAssertEqual(content["compression"] as? Int, plain.utf8.count - compressed.count)

        let entry = try XCTUnwrap(try server.request("GET", "/__mock/requests?path=/zipped").jsonArray?.first as? [String: Any])
        XCTAssertEqual(entry["responseBody"] as? String, plain, "the journal shows it decoded too")
        let id = try XCTUnwrap(entry["id"] as? Int)
        let kept = try server.request("POST", "/__mock/requests/\(id)/stub")
        XCTAssertEqual(kept.status, 201, kept.text)
        let response = try XCTUnwrap(kept.jsonObject?["response"] as? [String: Any], kept.text)
        XCTAssertEqual(response["body"] as? String, plain, kept.text)
        XCTAssertNil((response["headers"] as? [String: Any])?["Content-Encoding"], kept.text)

        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings").status, 200)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import-har", jsonText: har.text).status, 200)
        let replay = try server.request("GET", "/zipped")
        XCTAssertEqual(replay.text, plain)
        XCTAssertNil(replay.header("Content-Encoding"), "the HAR held the decoded body")
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
