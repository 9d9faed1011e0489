import Foundation
import HTTPServer
import Routes
import MockControl
import Stubs
import MockTestSupport
import TestSupport
import XCTest

/// `POST /__mock/requests/{id}/stub` over real sockets: an answer the journal kept becomes a stub
/// mapping that answers the same request the same way.
final class JournalKeepAsStubTests: MockServerTestCase {
    func testAKeptAnswerIsReplayedByTheStubOnceTheJournalIsEmptied() throws {
        let first = try server.request("GET", "/rows/1?page=2")
        let hint = try XCTUnwrap(first.header("X-Mock-Hint"), "the system answers with a hint to keep")
        let id = try XCTUnwrap(try server.journal().first?["id"] as? Int)

        let kept = try server.request("POST", "/__mock/requests/\(id)/stub")
        XCTAssertEqual(kept.status, 201, kept.text)
        let mapping = try XCTUnwrap(kept.jsonObject)
        XCTAssertNotNil(mapping["id"] as? String)
        let request = try XCTUnwrap(mapping["request"] as? [String: Any])
        XCTAssertEqual(request["method"] as? String, "GET")
        XCTAssertEqual(request["url"] as? String, "/rows/1?page=2")
        XCTAssertEqual(Set(request.keys), ["method", "url"], "method and url only")
        let response = try XCTUnwrap(mapping["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, first.status)
        XCTAssertEqual(response["body"] as? String, first.text)
        let headers = try XCTUnwrap(response["headers"] as? [String: Any])
        XCTAssertEqual(headers["X-Mock-Hint"] as? String, hint)
        for left in ["Date", "Server", "Content-Length", "Connection", "Transfer-Encoding"] { XCTAssertNil(headers[left], left) }
        XCTAssertNil(mapping["persistent"], "no mappings folder: kept in memory")

        XCTAssertEqual(try server.request("DELETE", "/__mock/requests").status, 204)
        let again = try server.request("GET", "/rows/1?page=2")
        XCTAssertEqual(again.status, first.status)
        XCTAssertEqual(again.body, first.body)
        XCTAssertEqual(again.header("X-Mock-Hint"), hint)
        XCTAssertEqual(again.header("Content-Type"), first.header("Content-Type"))
        let answeredBy = try server.journal().first
        XCTAssertEqual(answeredBy?["system"] as? String, "stubs", "the stub answered, not the system")
        XCTAssertEqual((answeredBy?["stub"] as? [String: Any])?["id"] as? String, mapping["id"] as? String)
    }

    func testABinaryAnswerIsKeptAsBase64AndPersistedUnderAMappingsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path
        let server = try TestServer(stubs: { clock in try StubLoading.store(root: path, clock: clock) })
        defer { server.stop() }
        let bytes: [UInt8] = [0xFF, 0x00, 0x01, 0xFE]
        let source: [String: Any] = ["request": ["method": "GET", "urlPath": "/blob"],
                                     "response": ["status": 203, "base64Body": Data(bytes).base64EncodedString(),
                                                  "headers": ["Content-Type": "application/octet-stream"]]]
        let added = try server.request("POST", "/__admin/mappings", json: source)
        XCTAssertEqual(added.status, 201, added.text)
        XCTAssertEqual(try server.request("GET", "/blob?v=1").body, bytes)
        let id = try XCTUnwrap(try server.journal().first?["id"] as? Int)

        let kept = try server.request("POST", "/__mock/requests/\(id)/stub")
        XCTAssertEqual(kept.status, 201, kept.text)
        let mapping = try XCTUnwrap(kept.jsonObject)
        XCTAssertEqual(mapping["persistent"] as? Bool, true)
        let response = try XCTUnwrap(mapping["response"] as? [String: Any])
        XCTAssertEqual(response["base64Body"] as? String, Data(bytes).base64EncodedString())
        XCTAssertNil(response["body"])
        let mappingId = try XCTUnwrap(mapping["id"] as? String)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path)
        XCTAssertTrue(files.contains { $0.contains(mappingId) }, "\(files)")

        // The source mapping gone, the kept one answers alone.
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings/\(added.jsonObject?["id"] as? String ?? "")").status, 200)
        let again = try server.request("GET", "/blob?v=1")
        XCTAssertEqual(again.status, 203)
        XCTAssertEqual(again.body, bytes)
        XCTAssertEqual(again.header("Content-Type"), "application/octet-stream")
    }

    func testAnUnknownIdIs404WithAHint() throws {
        for id in ["999", "abc"] {
            let r = try server.request("POST", "/__mock/requests/\(id)/stub")
            XCTAssertEqual(r.status, 404, id)
            XCTAssertEqual(r.jsonObject?["error"] as? String, "no journal entry with id \(id)")
            XCTAssertNotNil(r.header("X-Mock-Hint"))
        }
    }

    func testAnAnswerTheJournalCutIsRefusedWithTheReason() throws {
        let long = String(repeating: "x", count: JournalEntry.keepWhole + 1)
        let source: [String: Any] = ["request": ["method": "GET", "url": "/long"], "response": ["status": 200, "body": long]]
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", json: source).status, 201)
        XCTAssertEqual(try server.request("GET", "/long").body.count, long.utf8.count)
        let id = try XCTUnwrap(try server.journal().first?["id"] as? Int)
        let r = try server.request("POST", "/__mock/requests/\(id)/stub")
        XCTAssertEqual(r.status, 422, r.text)
        XCTAssertTrue((r.jsonObject?["error"] as? String ?? "").contains("kept only its start"), r.text)
        XCTAssertNotNil(r.header("X-Mock-Hint"))
    }
}
