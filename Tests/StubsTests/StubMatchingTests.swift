import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// Stubs posted to `/__admin/mappings` and requests sent over real sockets: matching, priority,
/// scenarios, templating on the mock's clock, and where stubs sit among faults and systems.
final class StubMatchingTests: MockServerTestCase {
    @discardableResult
    private func stub(_ mapping: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let response = try server.request("POST", "/__admin/mappings", jsonText: mapping)
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
        return response.jsonObject ?? [:]
    }

    func testExactPathQueryHeaderAndBodyMatching() throws {
        try stub(#"{"request": {"method": "POST", "urlPath": "/flags", "queryParameters": {"v": {"equalTo": "2"}}, "headers": {"X-App": {"contains": "ios"}}, "bodyPatterns": [{"equalToJson": {"a": [1, 2]}, "ignoreArrayOrder": true}]}, "response": {"status": 200, "body": "yes"}}"#)
        let body = Array(#"{"a": [2, 1]}"#.utf8)
        XCTAssertEqual(try server.request("POST", "/flags?v=2", headers: [("X-App", "my-ios-app")], body: body).text, "yes")
        XCTAssertEqual(try server.request("POST", "/flags?v=3", headers: [("X-App", "my-ios-app")], body: body).status, 404)
        XCTAssertEqual(try server.request("POST", "/flags?v=2", headers: [("X-App", "android")], body: body).status, 404)
        XCTAssertEqual(try server.request("POST", "/flags?v=2", headers: [("X-App", "ios")], body: Array(#"{"a": [2]}"#.utf8)).status, 404)
    }

    func testPriorityThenNewestWins() throws {
        try stub(#"{"priority": 1, "request": {"urlPathPattern": "/cat/.*"}, "response": {"body": "pattern p1"}}"#)
        try stub(#"{"request": {"url": "/cat/a"}, "response": {"body": "older"}}"#)
        XCTAssertEqual(try server.request("GET", "/cat/a").text, "pattern p1")
        try stub(#"{"priority": 1, "request": {"url": "/cat/a"}, "response": {"body": "newest p1"}}"#)
        XCTAssertEqual(try server.request("GET", "/cat/a").text, "newest p1", "equal priority: the newest")
    }

    func testAStubOverridesASystemPathAndTheJournalNamesIt() throws {
        try stub(#"{"name": "rows override", "request": {"method": "GET", "url": "/rows/1"}, "response": {"status": 503, "jsonBody": {"down": true}}}"#)
        let response = try server.request("GET", "/rows/1")
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Matched-Stub-Name"), "rows override")
        let entries = try XCTUnwrap(try server.request("GET", "/__mock/requests?path=/rows/1").jsonArray as? [[String: Any]])
        let stub = try XCTUnwrap(entries.last?["stub"] as? [String: Any])
        XCTAssertEqual(stub["name"] as? String, "rows override")
        XCTAssertEqual(entries.last?["system"] as? String, "stubs")
    }

    func testAFaultRuleComesBeforeTheStub() throws {
        try stub(#"{"request": {"url": "/feature"}, "response": {"body": "stub"}}"#)
        let fault = try server.request("POST", "/__mock/faults", json: ["path": "/feature", "times": 1, "action": ["status": 500]])
        XCTAssertEqual(fault.status, 201, fault.text)
        XCTAssertEqual(try server.request("GET", "/feature").status, 500)
        XCTAssertEqual(try server.request("GET", "/feature").text, "stub")
    }

    func testScenarioMovesOnAndResets() throws {
        try stub(#"{"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full", "request": {"method": "POST", "url": "/cart"}, "response": {"status": 201}}"#)
        try stub(#"{"scenarioName": "cart", "requiredScenarioState": "Started", "request": {"url": "/cart", "method": "GET"}, "response": {"body": "empty"}}"#)
        try stub(#"{"scenarioName": "cart", "requiredScenarioState": "full", "request": {"url": "/cart", "method": "GET"}, "response": {"body": "full"}}"#)
        XCTAssertEqual(try server.request("GET", "/cart").text, "empty")
        XCTAssertEqual(try server.request("POST", "/cart", headers: [("Content-Type", "text/plain")], body: Array("x".utf8)).status, 201)
        XCTAssertEqual(try server.request("GET", "/cart").text, "full")
        let scenarios = try XCTUnwrap(try server.request("GET", "/__admin/scenarios").jsonObject?["scenarios"] as? [[String: Any]])
        XCTAssertEqual(scenarios.first?["state"] as? String, "full")
        XCTAssertEqual(try server.request("POST", "/__admin/scenarios/reset", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.request("GET", "/cart").text, "empty")
    }

    func testTemplatingUsesTheRequestAndTheMockClock() throws {
        try stub(#"{"request": {"urlPathPattern": "/t/.*"}, "response": {"body": "{{request.pathSegments.[1]}} {{request.query.q}} {{jsonPath request.body '$.name'}} {{now format='yyyy-MM-dd'}}", "transformers": ["response-template"]}}"#)
        server.clock.set(Date(timeIntervalSince1970: 1_700_000_000))
        let response = try server.request("POST", "/t/seg?q=1", headers: [("Content-Type", "application/json")], body: Array(#"{"name": "Ann"}"#.utf8))
        XCTAssertEqual(response.text, "seg 1 Ann 2023-11-14")
        XCTAssertEqual(try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 86400 * 2]).status, 200)
        XCTAssertTrue(try server.request("POST", "/t/x", headers: [("Content-Type", "application/json")], body: Array("{}".utf8)).text.hasSuffix("2023-11-16"))
    }

    /// As WireMock 2.35.1 answers it: the path is decoded, then cut at `/` (an encoded one too),
    /// empty segments skipped; `path` and `pathSegments` render the decoded path whole.
    func testPathSegmentsAreCutBeforeDecodingAndSkipEmptyOnes() throws {
        try stub(#"{"request": {"urlPathPattern": "/p/.*"}, "response": {"body": "{{request.pathSegments.[1]}}|{{request.pathSegments.[2]}}|{{request.path.[3]}}|{{request.path}}|{{request.pathSegments}}|{{size request.pathSegments}}", "transformers": ["response-template"]}}"#)
        XCTAssertEqual(try server.request("GET", "/p//a%2Fb/caf%C3%A9/x/").text, "a|b|café|/p//a/b/café/x/|/p//a/b/café/x/|5")
    }

    func testBasicAuthAndCookies() throws {
        try stub(#"{"request": {"url": "/me", "basicAuthCredentials": {"username": "ann", "password": "pw"}, "cookies": {"s": {"equalTo": "1"}}}, "response": {"body": "me"}}"#)
        let auth = "Basic " + Data("ann:pw".utf8).base64EncodedString()
        XCTAssertEqual(try server.request("GET", "/me", headers: [("Authorization", auth), ("Cookie", "a=b; s=1")]).text, "me")
        XCTAssertEqual(try server.request("GET", "/me", headers: [("Authorization", auth)]).status, 404)
    }

    func testFixedDelayHoldsTheAnswerWithoutHoldingOtherRequests() throws {
        try stub(#"{"request": {"url": "/slow"}, "response": {"body": "late", "fixedDelayMilliseconds": 300}}"#)
        let slow = try server.connect()
        try slow.sendRequest("GET", "/slow")
        // The loop answers another connection while the stub's answer waits.
        XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
        XCTAssertEqual(try slow.readResponse().text, "late")
    }

    func testConnectionResetFault() throws {
        try stub(#"{"request": {"url": "/broken"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}"#)
        XCTAssertThrowsError(try server.request("GET", "/broken"))
        try stub(#"{"request": {"url": "/garbage"}, "response": {"fault": "RANDOM_DATA_THEN_CLOSE"}}"#)
        XCTAssertThrowsError(try server.request("GET", "/garbage"))
    }

    func testMockResetRemovesStubsAddedOverHTTP() throws {
        try stub(#"{"request": {"url": "/temp"}, "response": {"body": "t"}}"#)
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/temp").status, 404)
        XCTAssertEqual((try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [Any])?.count, 0)
    }

    func testStubsAnswerWithTheJournalOff() throws {
        let quiet = try TestServer(journalSize: 0)
        defer { quiet.stop() }
        XCTAssertEqual(try quiet.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/q"}, "response": {"body": "q"}}"#).status, 201)
        XCTAssertEqual(try quiet.request("GET", "/q").text, "q")
    }
}
