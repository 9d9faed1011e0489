import Foundation
import HTTPServer
import MockAdminWire
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// The admin calls WireMock's own clients make beyond mapping CRUD, as the Java client sends
/// them: mappings posted as `text/plain`, bodiless resets, the older edit and remove, one
/// scenario's state, one serve event, and the journal's paging (refused when unknown).
final class StubClientRoutesTests: MockServerTestCase {
    private let id = "6a1c2b3d-0000-4000-8000-00000000a001"
    private let javaText = [("Content-Type", "text/plain; charset=UTF-8")]

    private func mapping(_ url: String, _ body: String, id: String? = nil, extra: String = "") -> String {
        let named = id.map { #""id": "\#($0)", "#} ?? ""
        return #"{\#(named)"request": {"method": "GET", "url": "\#(url)"}, "response": {"status": 200, "body": "\#(body)"}\#(extra)}"#
    }

    private func post(_ path: String, _ text: String = "") throws -> TestResponse {
        try server.request("POST", path, headers: text.isEmpty ? [] : javaText, body: Array(text.utf8))
    }

    func testEditAndRemoveByBodyAsTheJavaClientSendsThem() throws {
        XCTAssertEqual(try post("/__admin/mappings", mapping("/java", "one", id: id)).status, 201, "a text/plain post passes the guard")
        let edited = try post("/__admin/mappings/edit", mapping("/java", "two", id: id))
        XCTAssertEqual(edited.status, 204, edited.text)
        XCTAssertEqual(try server.request("GET", "/java").text, "two")
        XCTAssertEqual(try post("/__admin/mappings/edit", mapping("/java", "x", id: "6a1c2b3d-0000-4000-8000-0000000000ff")).status, 404)
        XCTAssertEqual(try post("/__admin/mappings/edit", mapping("/java", "x")).status, 422, "edit names its mapping by id")

        XCTAssertEqual(try post("/__admin/mappings/remove", mapping("/java", "two", id: id)).status, 200)
        XCTAssertEqual(try server.request("GET", "/java").status, 404)
        // Without an id: every mapping with the same request pattern, however its keys are ordered.
        XCTAssertEqual(try post("/__admin/mappings", mapping("/same", "a")).status, 201)
        XCTAssertEqual(try post("/__admin/mappings", mapping("/same", "b")).status, 201)
        XCTAssertEqual(try post("/__admin/mappings", mapping("/other", "c")).status, 201)
        XCTAssertEqual(try post("/__admin/mappings/remove", #"{"request": {"url": "/same", "method": "GET"}}"#).status, 200)
        XCTAssertEqual(try server.request("GET", "/same").status, 404)
        XCTAssertEqual(try server.request("GET", "/other").text, "c")
    }

    func testOneScenarioIsSetOrResetAndAnUnknownOneIs404() throws {
        let first = #", "scenarioName": "flow", "requiredScenarioState": "Started", "newScenarioState": "second""#
        let second = #", "scenarioName": "flow", "requiredScenarioState": "second""#
        XCTAssertEqual(try post("/__admin/mappings", mapping("/flow", "first", extra: first)).status, 201)
        XCTAssertEqual(try post("/__admin/mappings", mapping("/flow", "second", extra: second)).status, 201)
        XCTAssertEqual(try server.request("GET", "/flow").text, "first")
        XCTAssertEqual(try server.request("GET", "/flow").text, "second")
        XCTAssertEqual(try server.request("PUT", "/__admin/scenarios/flow/state").status, 200, "no body: back to Started")
        XCTAssertEqual(try server.request("GET", "/flow").text, "first")
        XCTAssertEqual(try server.request("PUT", "/__admin/scenarios/flow/state", headers: javaText, body: Array(#"{"state": "second"}"#.utf8)).status, 200)
        XCTAssertEqual(try server.request("GET", "/flow").text, "second")
        let unknown = try server.request("PUT", "/__admin/scenarios/nope/state")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual((unknown.jsonObject?["errors"] as? [[String: Any]])?.first?["title"] as? String, "Scenario nope does not exist")
        XCTAssertEqual(try server.request("PUT", "/__admin/scenarios/flow/state", body: Array(#"{"stat": "x"}"#.utf8)).status, 422)
        let unsupported = try server.request("PUT", "/__admin/scenarios/flow/state", body: Array(#"{"state": "nowhere"}"#.utf8))
        XCTAssertEqual(unsupported.status, 422, "a state no mapping of the scenario names, as WireMock's Scenario.setState")
        XCTAssertEqual(try server.request("GET", "/flow").text, "second", "unchanged")
        let states = (try server.request("GET", "/__admin/scenarios").jsonObject?["scenarios"] as? [[String: Any]])?.first?["possibleStates"] as? [String]
        XCTAssertEqual(states, ["second", "Started"], "the states moved to, then those required, as WireMock lists them")
    }

    func testServeEventsCarryWireMocksFieldsOnlyAndAreFoundPagedAndFiltered() throws {
        XCTAssertEqual(try post("/__admin/mappings", mapping("/seen", "yes", id: id)).status, 201)
        for _ in 0..<3 { XCTAssertEqual(try server.request("GET", "/seen").status, 200) }
        XCTAssertEqual(try server.request("GET", "/missing").status, 404)

        let all = try XCTUnwrap(try server.request("GET", "/__admin/requests").jsonObject)
        let events = try XCTUnwrap(all["requests"] as? [[String: Any]])
        XCTAssertEqual(events.count, 4)
        XCTAssertNil(events.last?["stub"], "a field WireMock's Java client does not know")
        XCTAssertEqual((events.last?["stubMapping"] as? [String: Any])?["id"] as? String, id)

        let page = try XCTUnwrap(try server.request("GET", "/__admin/requests?limit=2").jsonObject)
        XCTAssertEqual((page["requests"] as? [Any])?.count, 2)
        XCTAssertEqual((page["meta"] as? [String: Any])?["total"] as? Int, 4, "the total counts them all")
        let unmatched = try XCTUnwrap(try server.request("GET", "/__admin/requests?unmatched=true").jsonObject)
        XCTAssertEqual(((unmatched["requests"] as? [[String: Any]])?.first?["request"] as? [String: Any])?["url"] as? String, "/missing")
        let byStub = try XCTUnwrap(try server.request("GET", "/__admin/requests?matchingStub=\(id)").jsonObject)
        XCTAssertEqual((byStub["requests"] as? [Any])?.count, 3)
        let later = try XCTUnwrap(try server.request("GET", "/__admin/requests?since=2999-01-01T00:00:00Z").jsonObject)
        XCTAssertEqual((later["requests"] as? [Any])?.count, 0)
        XCTAssertEqual(try server.request("GET", "/__admin/requests?since=yesterday").status, 400)
        XCTAssertEqual(try server.request("GET", "/__admin/requests?limit=-1").status, 400)
        XCTAssertEqual(try server.request("GET", "/__admin/requests?matchingStub=").status, 400, "not a UUID")
        let unknown = try server.request("GET", "/__admin/requests?offset=1")
        XCTAssertEqual(unknown.status, 400, "a parameter not implemented is refused, never ignored")
        XCTAssertNotNil(unknown.header("X-Mock-Hint"))

        let eventId = try XCTUnwrap(events.first?["id"] as? String)
        let one = try server.request("GET", "/__admin/requests/\(eventId)")
        XCTAssertEqual(one.status, 200)
        XCTAssertEqual(one.jsonObject?["id"] as? String, eventId)
        XCTAssertEqual(try server.request("GET", "/__admin/requests/00000000-0000-4000-8000-0000000fffff").status, 404)

        XCTAssertEqual(try post("/__admin/mappings", mapping("/two", "2")).status, 201)
        let mappings = try XCTUnwrap(try server.request("GET", "/__admin/mappings?limit=1&offset=1").jsonObject)
        XCTAssertEqual(((mappings["mappings"] as? [[String: Any]])?.first?["id"] as? String), id, "newest first, the second of two")
        XCTAssertEqual((mappings["meta"] as? [String: Any])?["total"] as? Int, 2)
        XCTAssertEqual(try server.request("GET", "/__admin/mappings?page=2").status, 400)
    }

    func testTheJournalFiltersStubsAndItsEntryNamesTheStubThroughTheWireType() throws {
        XCTAssertEqual(try post("/__admin/mappings", mapping("/named", "n", id: id, extra: #", "name": "named stub""#)).status, 201)
        XCTAssertEqual(try server.request("GET", "/named").status, 200)
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403, "a system's request")
        let filtered = try server.request("GET", "/__mock/requests?system=stubs")
        XCTAssertEqual(filtered.status, 200, filtered.text)
        let entries = try JSONDecoder().decode([MockJournalEntry].self, from: Data(filtered.text.utf8))
        XCTAssertEqual(entries.map(\.path), ["/named"])
        XCTAssertEqual(entries.first?.stub, MockJournalEntry.Stub(id: id, name: "named stub"))
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?system=stubs").jsonObject?["count"] as? Int, 1)
    }

    func testRequestJournalDisabledSaysSoWhenTheJournalIsOff() throws {
        let off = try TestServer(journalSize: 0)
        defer { off.stop() }
        XCTAssertEqual(try off.request("GET", "/__admin/requests").jsonObject?["requestJournalDisabled"] as? Bool, true)
        XCTAssertEqual(try server.request("GET", "/__admin/requests").jsonObject?["requestJournalDisabled"] as? Bool, false)
    }

    func testMetadataQueriesAndJournalRemovals() throws {
        let tagged = #", "metadata": {"four": {"five": "55555"}}"#
        XCTAssertEqual(try post("/__admin/mappings", mapping("/tagged", "t", id: id, extra: tagged)).status, 201)
        XCTAssertEqual(try post("/__admin/mappings", mapping("/plain", "p")).status, 201)
        let byMetadata = #"{"matchesJsonPath": {"expression": "$.four.five", "contains": "55555"}}"#
        let found = try XCTUnwrap(try post("/__admin/mappings/find-by-metadata", byMetadata).jsonObject)
        XCTAssertEqual((found["mappings"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, [id])

        for path in ["/tagged", "/tagged", "/plain", "/plain"] { XCTAssertEqual(try server.request("GET", path).status, 200) }
        let removed = try XCTUnwrap(try post("/__admin/requests/remove-by-metadata", byMetadata).jsonObject)
        XCTAssertEqual((removed["serveEvents"] as? [Any])?.count, 2)
        let byPattern = try XCTUnwrap(try post("/__admin/requests/remove", #"{"url": "/plain"}"#).jsonObject)
        XCTAssertEqual((byPattern["serveEvents"] as? [Any])?.count, 2)
        XCTAssertEqual((try server.request("GET", "/__admin/requests").jsonObject?["requests"] as? [Any])?.count, 0)

        XCTAssertEqual(try server.request("GET", "/plain").status, 200)
        let event = try XCTUnwrap((try server.request("GET", "/__admin/requests").jsonObject?["requests"] as? [[String: Any]])?.first?["id"] as? String)
        XCTAssertEqual(try server.request("DELETE", "/__admin/requests/\(event)").status, 200)
        XCTAssertEqual(try server.request("GET", "/__admin/requests/\(event)").status, 404)
        XCTAssertEqual(try server.request("DELETE", "/__admin/requests/\(event)").status, 200, "gone already: still 200, as WireMock")

        XCTAssertEqual(try post("/__admin/mappings/remove-by-metadata", byMetadata).status, 200)
        XCTAssertEqual(try server.request("GET", "/tagged").status, 404)
        XCTAssertEqual(try server.request("GET", "/plain").text, "p")
    }

    func testSettingsFilesAndDocsAnswerAsWireMock() throws {
        XCTAssertEqual(try server.request("GET", "/__admin/settings").text, #"{"settings":{}}"#)
        XCTAssertEqual(try server.request("GET", "/__admin/files").text, "[]", "no --mappings folder")
        let docs = try server.request("GET", "/__admin/docs")
        XCTAssertEqual(docs.status, 200)
        XCTAssertTrue(docs.text.contains("/__admin/docs/swagger"), docs.text)
        XCTAssertEqual(try server.request("GET", "/__admin/docs/swagger").jsonObject?["openapi"] as? String, "3.1.0")
    }

    func testNearMissesRankTheClosestFirst() throws {
        let close = #"{"id": "\#(id)", "request": {"method": "POST", "url": "/orders", "headers": {"X-Kind": {"equalTo": "a"}}}, "response": {}}"#
        let far = #"{"request": {"method": "DELETE", "url": "/elsewhere"}, "response": {}}"#
        XCTAssertEqual(try post("/__admin/mappings", close).status, 201)
        XCTAssertEqual(try post("/__admin/mappings", far).status, 201)
        // Method and URL match, the header does not: one part of three missed.
        XCTAssertEqual(try server.request("POST", "/orders", headers: [("X-Kind", "b")]).status, 404)

        let unmatched = try XCTUnwrap(try server.request("GET", "/__admin/requests/unmatched/near-misses").jsonObject?["nearMisses"] as? [[String: Any]])
        XCTAssertEqual(unmatched.count, 2)
        XCTAssertEqual((unmatched.first?["stubMapping"] as? [String: Any])?["id"] as? String, id, "the closest first")
        let distance = try XCTUnwrap((unmatched.first?["matchResult"] as? [String: Any])?["distance"] as? Double)
        XCTAssertEqual(distance, 1.0 / 3.0, accuracy: 1e-9)

        let asked = try XCTUnwrap(try post("/__admin/near-misses/request", #"{"url": "/orders", "method": "POST", "headers": {"X-Kind": "a"}}"#)
            .jsonObject?["nearMisses"] as? [[String: Any]])
        XCTAssertEqual((asked.first?["matchResult"] as? [String: Any])?["distance"] as? Double, 0, "a logged request that matches: distance 0")
        XCTAssertEqual(try post("/__admin/near-misses/request", #"{"method": "GET"}"#).status, 422, "url is required")

        let byPattern = try XCTUnwrap(try post("/__admin/near-misses/request-pattern", #"{"method": "POST", "url": "/orders"}"#)
            .jsonObject?["nearMisses"] as? [[String: Any]])
        XCTAssertEqual(((byPattern.first?["request"] as? [String: Any])?["url"] as? String), "/orders")
        XCTAssertEqual((byPattern.first?["matchResult"] as? [String: Any])?["distance"] as? Double, 0)
    }

    func testNearMissesGradeAWrongExactURLByEditDistance() throws {
        XCTAssertEqual(try server.request("GET", "/actual11").status, 404)
        XCTAssertEqual(try server.request("GET", "/actual42").status, 404)
        let misses = try XCTUnwrap(try post("/__admin/near-misses/request-pattern", #"{"method": "GET", "url": "/actual4"}"#)
            .jsonObject?["nearMisses"] as? [[String: Any]])
        XCTAssertEqual(misses.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }, ["/actual42", "/actual11"],
                       "one edit from the pattern's URL before two, as WireMock ranks them")
        let distance = try XCTUnwrap((misses.first?["matchResult"] as? [String: Any])?["distance"] as? Double)
        XCTAssertEqual(distance, (1.0 / 9.0) / 2.0, accuracy: 1e-9, "the URL part of two (method, URL) missed by 1 edit in 9 characters")
    }

    /// WireMock compiles every stub regex with DOTALL: `.` crosses a line break in a body.
    func testARegexDotCrossesLineBreaksAsInWireMock() throws {
        let mapping = #"{"request": {"method": "POST", "url": "/dot", "bodyPatterns": [{"matches": ".*foo.*"}]}, "response": {"body": "matched"}}"#
        XCTAssertEqual(try post("/__admin/mappings", mapping).status, 201)
        XCTAssertEqual(try server.request("POST", "/dot", body: Array("a\nfoo\nb".utf8)).text, "matched")
    }

    /// A near miss's distance reads each part as matching does: credentials in `BASIC` (any case)
    /// match, so a request the stub would answer is at distance 0.
    func testANearMissMeasuresPartsAsMatchingDoes() throws {
        let mapping = #"{"request": {"method": "GET", "url": "/auth", "basicAuthCredentials": {"username": "tom", "password": "secret"}}, "response": {"body": "in"}}"#
        XCTAssertEqual(try post("/__admin/mappings", mapping).status, 201)
        let header = "BASIC " + Data("tom:secret".utf8).base64EncodedString()
        XCTAssertEqual(try server.request("GET", "/auth", headers: [("Authorization", header)]).text, "in")
        let asked = #"{"url": "/auth", "method": "GET", "headers": {"Authorization": "\#(header)"}}"#
        let misses = try XCTUnwrap(try post("/__admin/near-misses/request", asked).jsonObject?["nearMisses"] as? [[String: Any]])
        XCTAssertEqual((misses.first?["matchResult"] as? [String: Any])?["distance"] as? Double, 0)
    }

    /// `POST /__admin/mappings/edit` reads its mapping as `POST /__admin/mappings` does: under
    /// `--global-response-templating` the edited body is a template too.
    func testAnEditByBodyReadsTheMappingAsACreateDoes() throws {
        let templating = try TestServer(stubs: { clock in StubLoading.emptyStore(clock: clock, templateAll: true) })
        defer { templating.stop() }
        let created = try templating.request("POST", "/__admin/mappings", headers: javaText, body: Array(mapping("/t", "one {{request.path}}", id: id).utf8))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(try templating.request("GET", "/t").text, "one /t")
        XCTAssertEqual(try templating.request("POST", "/__admin/mappings/edit", headers: javaText, body: Array(mapping("/t", "two {{request.path}}", id: id).utf8)).status, 204)
        XCTAssertEqual(try templating.request("GET", "/t").text, "two /t")
    }
}
