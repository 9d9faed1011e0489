import Foundation
import HTTPServer
import MockTestSupport
import Routes
import Stubs
import TestSupport
import XCTest

/// Regular expressions in mappings over real sockets: a catastrophic pattern answers at once,
/// constructs that need backtracking are refused at decode, and 10,000 patterns cost a request
/// one pass over its path.
final class StubRegexTests: MockServerTestCase {
    private var stubs: StubStore { server.app.stubs }

    func testACatastrophicPatternAnswersItsRequest() throws {
        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPattern": "/redos/(a+)+$"}, "response": {"body": "matched"}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let body = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPath": "/body", "bodyPatterns": [{"matches": "(a+)+$"}]}, "response": {"body": "body matched"}}"#)
        XCTAssertEqual(body.status, 201, body.text)
        // 22 a's took a backtracking engine 289 s; 5,000 are a pass over the path here.
        let attack = "/redos/" + String(repeating: "a", count: 5_000) + "b"
        XCTAssertEqual(try server.request("GET", attack).status, 404)
        XCTAssertEqual(try server.request("GET", "/redos/" + String(repeating: "a", count: 5_000)).text, "matched")
        let text = Array((String(repeating: "a", count: 5_000) + "b").utf8)
        XCTAssertEqual(try server.request("POST", "/body", headers: [("Content-Type", "text/plain")], body: text).status, 404)
        XCTAssertEqual(try server.request("POST", "/body", headers: [("Content-Type", "text/plain")], body: Array("aaaa".utf8)).text, "body matched")
    }

    func testBacktrackingConstructsAreRefusedAtDecodeWithThePointer() throws {
        let refused = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPath": "/x", "headers": {"X-A": {"matches": "(a)\\1"}}}}"#)
        XCTAssertEqual(refused.status, 422)
        XCTAssertTrue(refused.text.contains("/request/headers/X-A/matches"), refused.text)
        XCTAssertTrue(refused.text.contains("backreferences"), refused.text)
        XCTAssertTrue(refused.text.contains("linear time"), refused.text)
        let lookahead = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPathPattern": "/a(?=b)"}}"#)
        XCTAssertEqual(lookahead.status, 422)
        XCTAssertTrue(lookahead.text.contains("/request/urlPathPattern") && lookahead.text.contains("lookahead"), lookahead.text)
    }

    func testTenThousandPatternsCostARequestOnePass() throws {
        var items: [String] = []
        for i in 0..<10_000 { items.append(#"{"request": {"urlPathPattern": "/p/\#(i)/[a-z]+"}, "response": {"body": "\#(i)"}}"#) }
        // Generous deadlines: importing and compiling 10,000 patterns takes seconds under a
        // sanitizer on a loaded machine; what is asserted is the work counted below.
        let loaded = try server.request("POST", "/__admin/mappings/import", jsonText: #"{"mappings": [\#(items.joined(separator: ","))]}"#,
                                        timeout: 120)
        XCTAssertEqual(loaded.status, 200, loaded.text)
        XCTAssertEqual(try server.request("GET", "/p/4321/items", timeout: 120).text, "4321", "warms this loop's copy")
        let before = stubs.patternWork
        XCTAssertEqual(try server.request("GET", "/p/9876/abc?x=1").text, "9876")
        let after = stubs.patternWork
        XCTAssertEqual(after.passes - before.passes, 1, "one pass over the path for all 10,000 patterns")
        XCTAssertEqual(after.patternsTried - before.patternsTried, 1, "only the pattern that matched is tried in full")
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        XCTAssertEqual(login.status, 200, "a system's request passes through")
        let end = stubs.patternWork
        XCTAssertEqual(end.passes - after.passes, 1)
        XCTAssertEqual(end.patternsTried, after.patternsTried, "no pattern matched the login path")
    }
}
