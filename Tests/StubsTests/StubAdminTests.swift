import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// `/__admin/*`: WireMock's paths and answer shapes, refusals with the field named, the cap,
/// and the admin guard.
final class StubAdminTests: MockServerTestCase {
    private let minimal = #"{"request": {"url": "/x"}, "response": {"body": "x"}}"#

    func testMappingsCrud() throws {
        let created = try server.request("POST", "/__admin/mappings", jsonText: minimal)
        XCTAssertEqual(created.status, 201)
        let id = try XCTUnwrap(created.jsonObject?["id"] as? String)
        XCTAssertEqual(created.jsonObject?["uuid"] as? String, id)
        XCTAssertEqual(try server.request("GET", "/__admin/mappings/\(id)").status, 200)
        let edited = try server.request("PUT", "/__admin/mappings/\(id)", jsonText: #"{"request": {"url": "/x"}, "response": {"body": "y"}}"#)
        XCTAssertEqual(edited.status, 200, edited.text)
        XCTAssertEqual(try server.request("GET", "/x").text, "y")
        let list = try XCTUnwrap(try server.request("GET", "/__admin/mappings").jsonObject)
        XCTAssertEqual((list["meta"] as? [String: Any])?["total"] as? Int, 1)
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings/\(id)", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings/\(id)", headers: TestServer.adminWrite).status, 404)
        XCTAssertEqual(try server.request("GET", "/x").status, 404)
    }

    /// The document matches the server (S10): a null is read as absent and shown absent, and a
    /// PUT's body id must be a UUID string like a POST's.
    func testNullFieldsAreStoredAbsentAndAPutsIdMustBeAUUID() throws {
        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"name": null, "metadata": null, "request": {"urlPathPattern": null, "url": "/n", "method": null}, "response": {"status": null, "jsonBody": {"kept": null}}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(created.jsonObject?["id"] as? String)
        let shown = try XCTUnwrap(try server.request("GET", "/__admin/mappings/\(id)").jsonObject)
        XCTAssertNil(shown["name"])
        XCTAssertNil(shown["metadata"])
        XCTAssertEqual((shown["request"] as? [String: Any])?.keys.sorted(), ["url"])
        let response = try XCTUnwrap(shown["response"] as? [String: Any])
        XCTAssertNil(response["status"])
        XCTAssertTrue((response["jsonBody"] as? [String: Any])?.keys.contains("kept") == true, "a body's own null stays")
        XCTAssertEqual(try server.request("GET", "/n").text, #"{"kept":null}"#)
        for (body, pointer) in [(#"{"id": 0.0, "request": {"url": "/n"}}"#, "/id"), (#"{"uuid": "", "request": {"url": "/n"}}"#, "/uuid")] {
            let edited = try server.request("PUT", "/__admin/mappings/\(id)", jsonText: body)
            XCTAssertEqual(edited.status, 422, body)
            let errors = try XCTUnwrap(edited.jsonObject?["errors"] as? [[String: Any]])
            XCTAssertEqual((errors.first?["source"] as? [String: Any])?["pointer"] as? String, pointer)
        }
        XCTAssertEqual(try server.request("PUT", "/__admin/mappings/\(id)", jsonText: #"{"id": "\#(id.uppercased())", "request": {"url": "/n"}}"#).status, 200)
    }

    func testUnknownFieldIsRefusedByName() throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/x", "bogus": 1}, "response": {}}"#)
        XCTAssertEqual(response.status, 422)
        let errors = try XCTUnwrap(response.jsonObject?["errors"] as? [[String: Any]])
        XCTAssertEqual((errors.first?["source"] as? [String: Any])?["pointer"] as? String, "/request/bogus")
        XCTAssertEqual(errors.first?["detail"] as? String,
                       #"Unrecognized field "bogus" (class com.github.tomakehurst.wiremock.matching.RequestPattern), not marked as ignorable"#,
                       "WireMock's own words in the body")
        let hint = try XCTUnwrap(response.header("X-Mock-Hint"))
        XCTAssertTrue(hint.hasPrefix("/request/bogus: ") && hint.contains("supported here"), hint)
    }

    func testMatcherErrorsPointAtTheMatcherAsWireMockDoesAndHintAtTheField() throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"bodyPatterns": [{"equalTo": "a"}, {"or": [{"contains": 5}]}]}}"#)
        XCTAssertEqual(response.status, 422)
        let error = try XCTUnwrap((response.jsonObject?["errors"] as? [[String: Any]])?.first)
        XCTAssertEqual((error["source"] as? [String: Any])?["pointer"] as? String, "/request/bodyPatterns/1/0", "WireMock's path leaves out the or")
        XCTAssertEqual(error["title"] as? String, "Error parsing JSON")
        XCTAssertEqual(error["detail"] as? String, "contains operand must be a non-null string")
        XCTAssertEqual(response.header("X-Mock-Hint"), #"/request/bodyPatterns/1/or/0/contains: "contains" must be a string"#)
        let json = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"bodyPatterns": [{"equalToJson": "(x"}]}}"#)
        let detail = try XCTUnwrap(((json.jsonObject?["errors"] as? [[String: Any]])?.first)?["detail"] as? String)
        XCTAssertTrue(detail.hasPrefix("Unexpected character ('(' (code 40)): expected a valid value") && detail.hasSuffix("line: 1, column: 2]"), detail)
        XCTAssertTrue(json.header("X-Mock-Hint")?.contains("not JSON") == true)
        let word = try server.request("POST", "/__admin/mappings", body: Array("not json".utf8))
        let wordError = try XCTUnwrap((word.jsonObject?["errors"] as? [[String: Any]])?.first)
        XCTAssertEqual(wordError["detail"] as? String, "Unrecognized token 'not': was expecting (JSON String, Number, Array, Object or token "
                       + "'null', 'true' or 'false')\n at [Source: (String)\"not json\"; line: 1, column: 4]", "Jackson's words, as WireMock's")
        let quoted = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"bodyPatterns": [{"equalToJson": "{'a': 1}"}]}}"#)
        let quotedError = try XCTUnwrap((quoted.jsonObject?["errors"] as? [[String: Any]])?.first)
        XCTAssertEqual((quotedError["source"] as? [String: Any])?["pointer"] as? String, "/request/bodyPatterns/0/equalToJson",
                       "WireMock reads single quotes: a refusal of this server's own keeps its pointer")
    }

    func testBadRegexAndFileOutsideFilesAreRefused() throws {
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPattern": "/a(("}}"#).status, 422)
        let file = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/f"}, "response": {"bodyFileName": "../etc/passwd"}}"#)
        XCTAssertEqual(file.status, 422)
        XCTAssertTrue(file.text.contains("bodyFileName"))
    }

    func testSyntaxErrorNamesLineAndColumn() throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: "{\n  \"request\": {\"url\": \"/x\"\n")
        XCTAssertEqual(response.status, 422)
        let error = try XCTUnwrap((response.jsonObject?["errors"] as? [[String: Any]])?.first)
        XCTAssertEqual((error["source"] as? [String: Any])?.count, 0, "WireMock names no place for a syntax error")
        let hint = try XCTUnwrap(response.header("X-Mock-Hint"))
        XCTAssertTrue(hint.contains("line 3"), hint)
    }

    func testImportIsAllOrNothing() throws {
        let body = #"{"mappings": [{"request": {"url": "/a"}, "response": {"body": "a"}}, {"request": {"url": "/b", "nope": true}}]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: body).status, 422)
        XCTAssertEqual((try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [Any])?.count, 0, "nothing half-added")
        let good = #"{"mappings": [{"request": {"url": "/a"}, "response": {"body": "a"}}, {"request": {"url": "/b"}, "response": {"body": "b"}}]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: good).status, 200)
        XCTAssertEqual(try server.request("GET", "/b").text, "b")
    }

    func testRequestsCountFindAndUnmatchedReadTheJournal() throws {
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: minimal).status, 201)
        _ = try server.request("GET", "/x")
        _ = try server.request("GET", "/x?again=1")
        _ = try server.request("GET", "/nobody-owns-this")
        let count = try server.request("POST", "/__admin/requests/count", jsonText: #"{"method": "GET", "urlPath": "/x"}"#)
        XCTAssertEqual(count.jsonObject?["count"] as? Int, 2, count.text)
        let found = try XCTUnwrap(try server.request("POST", "/__admin/requests/find", jsonText: #"{"url": "/x?again=1"}"#).jsonObject?["requests"] as? [[String: Any]])
        XCTAssertEqual(found.map { $0["url"] as? String }, ["/x?again=1"])
        let unmatched = try XCTUnwrap(try server.request("GET", "/__admin/requests/unmatched").jsonObject?["requests"] as? [[String: Any]])
        // `url` is exact, query included: `/x?again=1` matched no stub (as in WireMock).
        XCTAssertEqual(unmatched.map { $0["url"] as? String }, ["/x?again=1", "/nobody-owns-this"])
        let all = try XCTUnwrap(try server.request("GET", "/__admin/requests").jsonObject)
        XCTAssertEqual((all["meta"] as? [String: Any])?["total"] as? Int, 3)
        XCTAssertEqual(try server.request("DELETE", "/__admin/requests", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual((try server.request("GET", "/__mock/requests").jsonArray)?.count, 0, "the same journal as /__mock/requests")
    }

    func testTheCapRefusesMoreThanTenThousand() throws {
        var items: [String] = []
        for i in 0..<10_000 { items.append(#"{"request": {"url": "/m/\#(i)"}, "response": {"body": "\#(i)"}}"#) }
        // A generous deadline: 10,000 mappings take seconds to import under a sanitizer.
        let full = try server.request("POST", "/__admin/mappings/import", jsonText: #"{"mappings": [\#(items.joined(separator: ","))]}"#,
                                      timeout: 120)
        XCTAssertEqual(full.status, 200, full.text)
        XCTAssertEqual(try server.request("GET", "/m/9999").text, "9999")
        let over = try server.request("POST", "/__admin/mappings", jsonText: minimal)
        XCTAssertEqual(over.status, 422)
        XCTAssertTrue(over.text.contains("10000"), over.text)
    }

    func testTheAdminGuardCoversAdminPaths() throws {
        // A cross-site page may not change stubs: a simple POST, with the Origin a browser adds.
        let refused = try server.request("POST", "/__admin/mappings", headers: [("Content-Type", "text/plain"), ("Origin", "http://evil.example")], body: Array(minimal.utf8))
        XCTAssertEqual(refused.status, 403)
        let origin = try server.request("GET", "/__admin/mappings", headers: [("Origin", "http://evil.example")])
        XCTAssertEqual(origin.status, 403)
        XCTAssertEqual((try server.request("GET", "/__mock/requests").jsonArray)?.count, 0, "admin paths are not journaled")
    }

    func testTheConsoleListShowsHitsAndScenarioState() throws {
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"name": "s1", "scenarioName": "flow", "requiredScenarioState": "Started", "newScenarioState": "two", "request": {"method": "GET", "url": "/s"}, "response": {"status": 202}}"#).status, 201)
        _ = try server.request("GET", "/s")
        let list = try XCTUnwrap(try server.request("GET", "/__mock/stubs").jsonArray as? [[String: Any]])
        XCTAssertEqual(list.first?["name"] as? String, "s1")
        XCTAssertEqual(list.first?["hits"] as? Int, 1)
        XCTAssertEqual(list.first?["status"] as? Int, 202)
        XCTAssertEqual(list.first?["scenarioState"] as? String, "two")
        XCTAssertTrue(try server.request("GET", "/__mock/", headers: [("Accept", "text/html")]).text.contains("id=\"tab-stubs\""))
    }
}

/// The log names the stub that answered and says when stubs change; the events stream carries both.
final class StubLogTests: XCTestCase {
    func testTheLogLineNamesTheStubAndChangesAreLogged() throws {
        let lines = Locked<[String]>([])
        let logger = Logger(level: .info) { line in lines.withLock { $0.append(line) } }
        let server = try TestServer(logger: logger, configure: { $0.eventLoops = 1 })
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"name": "avatar", "request": {"url": "/avatar"}, "response": {"status": 204}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/avatar").status, 204)
        // One loop: this answer is written after the stub's, so its line is already there.
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
        let log = lines.withLock { $0.joined() }
        XCTAssertTrue(log.contains("stub(s) added: avatar"), log)
        XCTAssertTrue(log.contains("GET /avatar 204") && log.contains("stubs/avatar"), log)
    }

    /// A JSON line has the journal's `system` (`stubs`) and the stub's name apart.
    func testTheJSONLineSaysStubsAndNamesTheStubApart() throws {
        let lines = Locked<[String]>([])
        let logger = Logger(level: .info, format: .json) { line in lines.withLock { $0.append(line) } }
        let server = try TestServer(logger: logger, configure: { $0.eventLoops = 1 })
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"name": "a/b \"c\"", "request": {"url": "/avatar"}, "response": {"status": 204}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/avatar").status, 204)
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
        let objects = lines.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let stubLine = try XCTUnwrap(objects.first { $0["path"] as? String == "/avatar" }, "\(lines.withLock { $0 })")
        XCTAssertEqual(stubLine["system"] as? String, "stubs")
        XCTAssertEqual(stubLine["stub"] as? String, #"a/b "c""#, "the name whole, after the first slash")
        let rowsLine = try XCTUnwrap(objects.first { $0["path"] as? String == "/rows/1" })
        XCTAssertEqual(rowsLine["system"] as? String, "rows")
        XCTAssertNil(rowsLine["stub"])
        let journal = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(server.request("GET", "/__mock/requests?system=stubs").body)) as? [[String: Any]])
        XCTAssertEqual(journal.map { $0["system"] as? String }, ["stubs"], "the log and the journal say the same")
    }
}
