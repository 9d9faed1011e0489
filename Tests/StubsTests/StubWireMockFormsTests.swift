import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// Forms WireMock 2.35.1 accepts with a clear meaning, found in real folders and its own tests:
/// each is accepted here with WireMock's meaning (docs/stubs.md, "Migrating a WireMock folder").
final class StubWireMockFormsTests: MockServerTestCase {
    private func post(_ json: String) throws -> TestResponse { try server.request("POST", "/__admin/mappings", jsonText: json) }

    func testInsertionIndexAndAnEmptyPostServeActionsAreAccepted() throws {
        let created = try post(#"{"request": {"url": "/i"}, "response": {"body": "i"}, "insertionIndex": 7, "postServeActions": []}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertNil(created.jsonObject?["insertionIndex"], "the order here is the load order")
        XCTAssertEqual(try server.request("GET", "/i").text, "i")
        let other = try post(#"{"request": {"url": "/w"}, "postServeActions": [{"name": "email"}]}"#)
        XCTAssertEqual(other.status, 422, "an action other than a webhook would not run: refused")
        XCTAssertTrue(other.text.contains("post-serve action is supported"), other.text)
        let noURL = try post(#"{"request": {"url": "/w"}, "postServeActions": [{"name": "webhook"}]}"#)
        XCTAssertEqual(noURL.status, 422, "a webhook without a url")
    }

    func testAPriorityGivenAsAStringCounts() throws {
        XCTAssertEqual(try post(#"{"priority": "1", "request": {"url": "/p"}, "response": {"body": "first"}}"#).status, 201)
        XCTAssertEqual(try post(#"{"request": {"url": "/p"}, "response": {"body": "newer, default 5"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/p").text, "first")
        XCTAssertEqual(try post(#"{"priority": "high", "request": {"url": "/q"}}"#).status, 422)
    }

    func testIdAndUuidDifferingTheLaterInTheObjectWins() throws {
        let id = "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7", uuid = "9d6ec9c1-3ec5-4be8-b00a-49dacb11eb08"
        let created = try post(#"{"id": "\#(id)", "uuid": "\#(uuid)", "request": {"url": "/u"}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(try server.request("GET", "/__admin/mappings/\(uuid)").status, 200, "uuid, written last, wins as in WireMock")
        XCTAssertEqual(try server.request("GET", "/__admin/mappings/\(id)").status, 404)
    }

    func testAnEmptyMappingAnswersEveryRequestWith200() throws {
        let created = try post("{}")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual((created.jsonObject?["request"] as? [String: Any])?["method"] as? String, "ANY")
        XCTAssertEqual(try server.request("DELETE", "/anything/at/all").status, 200)
    }

    func testAnImportWithEmptyOrNullIdsMakesThem() throws {
        let body = #"{"mappings": [{"id": "", "request": {"url": "/e"}}, {"id": null, "uuid": null, "request": {"url": "/n"}}]}"#
        let imported = try server.request("POST", "/__admin/mappings/import", jsonText: body)
        XCTAssertEqual(imported.status, 200, imported.text)
        let ids = (try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(Set(ids).count, 2)
    }

    func testAbsentWrittenAsTextMatchesAMissingHeader() throws {
        XCTAssertEqual(try post(#"{"request": {"url": "/a", "headers": {"X-Trace": {"absent": "(absent)"}}}, "response": {"body": "none"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/a").text, "none")
        XCTAssertEqual(try server.request("GET", "/a", headers: [("X-Trace", "1")]).status, 404)
    }

    func testBasicAuthMatchesTheSchemeInAnyCase() throws {
        XCTAssertEqual(try post(#"{"request": {"url": "/b", "basicAuthCredentials": {"username": "user", "password": "pw"}}, "response": {"body": "in"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/b", headers: [("Authorization", "BASIC dXNlcjpwdw==")]).text, "in")
        XCTAssertEqual(try server.request("GET", "/b", headers: [("Authorization", "Basic dXNlcjpvdGhlcg==")]).status, 404)
    }

    func testDoesNotContain() throws {
        XCTAssertEqual(try post(#"{"request": {"url": "/c", "method": "POST", "bodyPatterns": [{"doesNotContain": "secret"}]}, "response": {"body": "clean"}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/c", body: Array("plain".utf8)).text, "clean")
        XCTAssertEqual(try server.request("POST", "/c", body: Array("a secret".utf8)).status, 404)
    }

    func testImportIgnoreKeepsTheLoadedMappingAndDeleteAllRemovesTheRest() throws {
        let id = "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7"
        XCTAssertEqual(try post(#"{"id": "\#(id)", "request": {"url": "/two"}, "response": {"body": "Original"}}"#).status, 201)
        XCTAssertEqual(try post(#"{"request": {"url": "/gone"}}"#).status, 201)
        let body = #"{"mappings": [{"id": "\#(id)", "request": {"url": "/two"}, "response": {"body": "Updated"}}], "importOptions": {"duplicatePolicy": "IGNORE", "deleteAllNotInImport": true}}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: body).status, 200)
        XCTAssertEqual(try server.request("GET", "/two").text, "Original", "IGNORE leaves a loaded id as it is")
        XCTAssertEqual(try server.request("GET", "/gone").status, 404, "not in the import: removed")
    }

    func testAnImportOverwritingAMappingKeepsItsPlace() throws {
        let id = "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f8"
        XCTAssertEqual(try post(#"{"id": "\#(id)", "priority": 5, "request": {"urlPathPattern": "/p/.*"}, "response": {"body": "Original"}}"#).status, 201)
        XCTAssertEqual(try post(#"{"priority": 5, "request": {"urlPathPattern": "/p/.*"}, "response": {"body": "newer"}}"#).status, 201)
        let body = #"{"mappings": [{"id": "\#(id)", "priority": 5, "request": {"urlPathPattern": "/p/.*"}, "response": {"body": "Updated"}}]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: body).status, 200)
        let bodies = (try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? [])
            .map { ($0["response"] as? [String: Any])?["body"] as? String }
        XCTAssertEqual(bodies, ["newer", "Updated"], "WireMock's import edits the mapping in place: still the older one")
        XCTAssertEqual(try server.request("GET", "/p/x").text, "newer", "and still matched after the newer one")
    }

    func testTheOlderAddPathAddsAMapping() throws {
        let added = try server.request("POST", "/__admin/mappings/new", jsonText: #"{"request": {"urlPattern": "/one/(.*?)/three"}, "response": {"body": "Matched!"}}"#)
        XCTAssertEqual(added.status, 201, "WireMock's POST /__admin/mappings/new, which its test client still uses")
        XCTAssertEqual(try server.request("GET", "/one/two/three").text, "Matched!")
    }

    func testAnImportListsItsFirstMappingFirst() throws {
        let body = #"{"mappings": [{"request": {"url": "/one"}}, {"request": {"url": "/two"}}]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: body).status, 200)
        let urls = (try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? [])
            .map { ($0["request"] as? [String: Any])?["url"] as? String }
        XCTAssertEqual(urls, ["/one", "/two"], "as WireMock, which adds an import last first")
    }

    func testATemplatedBodyFileNameIsRefusedForItsTemplate() throws {
        let mapping = #"{"request": {"urlPathPattern": "/t/.*"}, "response": {"transformers": ["response-template"], "bodyFileName": "x_{{stringFormat 1}}.json"}}"#
        let response = try post(mapping)
        XCTAssertEqual(response.status, 422)
        XCTAssertTrue(response.text.contains("stringFormat"), response.text)
        XCTAssertFalse(response.text.contains("relative path"), "the path is fine; the helper is the reason: \(response.text)")
    }

    /// WireMock 2's spellings of the request in a template: `request.path.[n]` (and `.n`),
    /// `request.baseUrl`, `request.requestLine.host`, `.port`, `.scheme` (stubs-compat B1, B3).
    func testWireMock2sRequestPathSegmentsAndBaseUrlRender() throws {
        let body = "{{request.path.[0]}}|{{request.path.1}}|{{request.baseUrl}}|{{request.requestLine.host}}|{{request.requestLine.port}}|{{request.requestLine.scheme}}"
        let mapping = #"{"request": {"urlPathPattern": "/seg/.*"}, "response": {"transformers": ["response-template"], "body": "\#(body)"}}"#
        XCTAssertEqual(try post(mapping).status, 201)
        let answer = try server.request("GET", "/seg/two", headers: [("Host", "my.domain.io:8080")])
        XCTAssertEqual(answer.text, "seg|two|http://my.domain.io:8080|my.domain.io|8080|http")
    }
}
