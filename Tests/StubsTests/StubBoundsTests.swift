import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// What bounds a stub's work: `equalToJson` and JSONPath step budgets, and the rendered body
/// cap (`--max-stub-body-bytes`), each over real sockets where a request reaches it.
final class StubBoundsTests: MockServerTestCase {
    private func stub(_ mapping: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: mapping)
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
    }

    private func json(_ text: String) throws -> JSONValue { try XCTUnwrap(JSONValue.parse(text)) }

    /// The review's body (600 × "a", 600 × "b" against ["a", "b", "c"]) costs a few thousand
    /// steps, not the cube of its length: identical elements pair by hash.
    func testUnorderedArraysPairIdenticalElementsInLinearSteps() throws {
        let expected = try json(#"{"tags": ["a", "b", "c"]}"#)
        let tags = Array(repeating: "\"a\"", count: 600) + Array(repeating: "\"b\"", count: 600)
        var budget = StubBudget()
        XCTAssertFalse(JSONMatch.equal(expected, try json(#"{"tags": [\#(tags.joined(separator: ","))]}"#),
                                       ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertFalse(budget.exhausted)
        XCTAssertLessThan(StubBudget.matchSteps - budget.remaining, 10_000)
        budget = StubBudget()
        XCTAssertTrue(JSONMatch.equal(expected, try json(#"{"tags": [\#((tags + ["\"c\""]).joined(separator: ","))]}"#),
                                      ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertLessThan(StubBudget.matchSteps - budget.remaining, 10_000)
    }

    /// Objects that match larger ones need a real matching: the greedy first pick is undone.
    func testUnorderedArraysOfObjectsFindAMatchingByAugmentingPaths() throws {
        var budget = StubBudget()
        XCTAssertTrue(JSONMatch.equal(try json(#"[{"a": 1}, {"b": 1}]"#), try json(#"[{"a": 1, "b": 1}, {"a": 1, "c": 1}]"#),
                                      ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertFalse(JSONMatch.equal(try json(#"[{"a": 1}, {"b": 1}]"#), try json(#"[{"a": 1, "b": 1}, {"c": 1}]"#),
                                       ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertTrue(JSONMatch.equal(try json(#"[[1, 2], [2, 1, 3], {"x": [0, -0]}]"#), try json(#"[{"x": [0, 0]}, [3, 1, 2], [2, 1]]"#),
                                      ignoreArrayOrder: true, ignoreExtra: false, budget: &budget))
        XCTAssertFalse(JSONMatch.equal(try json(#"[[1, 2], [2, 1]]"#), try json(#"[[1, 2], [2, 1, 3]]"#),
                                       ignoreArrayOrder: true, ignoreExtra: false, budget: &budget))
        XCTAssertFalse(budget.exhausted)
    }

    /// Distinct objects that each match many others: past the budget the answer is "no match".
    func testAMatchPastItsBudgetIsNoMatch() throws {
        let expected = "[" + (0..<300).map { #"{"k": \#($0 % 7)}"# }.joined(separator: ",") + "]"
        let actual = "[" + (0..<300).map { #"{"k": \#($0 % 7), "n": \#($0)}"# }.joined(separator: ",") + "]"
        var budget = StubBudget(steps: 2_000)
        XCTAssertFalse(JSONMatch.equal(try json(expected), try json(actual), ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertTrue(budget.exhausted)
        budget = StubBudget()
        XCTAssertTrue(JSONMatch.equal(try json(expected), try json(actual), ignoreArrayOrder: true, ignoreExtra: true, budget: &budget))
        XCTAssertFalse(budget.exhausted)
    }

    func testJSONPathStopsAtItsBudget() throws {
        let path = try JSONPath("$[*][*][*]", at: "/")
        let document = try json("[" + Array(repeating: "[" + Array(repeating: "[1, 2, 3]", count: 100).joined(separator: ",") + "]", count: 100).joined(separator: ",") + "]")
        var budget = StubBudget(steps: 1000)
        XCTAssertThrowsError(try path.read(document, budget: &budget))
        XCTAssertTrue(budget.exhausted)
        budget = StubBudget()
        guard case .array(let items) = try path.read(document, budget: &budget) else { return XCTFail("a list") }
        XCTAssertEqual(items.count, 30_000)
    }

    /// A deep scan with a filter that compares against the root visits every node once per
    /// node: the budget stops it too.
    func testADeepScanStopsAtItsBudget() throws {
        let path = try JSONPath("$..[?(@.a == $..a.length())]", at: "/")
        let document = try json("[" + Array(repeating: #"{"a": [1, 2]}"#, count: 2_000).joined(separator: ",") + "]")
        var budget = StubBudget(steps: 100_000)
        XCTAssertThrowsError(try path.read(document, budget: &budget))
        XCTAssertTrue(budget.exhausted)
    }

    func testTheReviewsBodyDoesNotMatchAndTheServerAnswersAtOnce() throws {
        try stub(#"{"request": {"method": "POST", "urlPath": "/orders", "bodyPatterns": [{"equalToJson": {"tags": ["a", "b", "c"]}, "ignoreArrayOrder": true, "ignoreExtraElements": true}]}, "response": {"body": "ok"}}"#)
        let tags = Array(repeating: "\"a\"", count: 600) + Array(repeating: "\"b\"", count: 600)
        XCTAssertEqual(try server.request("POST", "/orders", jsonText: #"{"tags": [\#(tags.joined(separator: ","))]}"#).status, 404)
        XCTAssertEqual(try server.request("POST", "/orders", jsonText: #"{"tags": [\#((tags + ["\"c\""]).joined(separator: ","))]}"#).text, "ok")
    }

    /// The review's amplifier: 10,000 × `{{{request.body}}}` and a 1 MiB POST stop at the cap
    /// (16 copies), answered 500 naming the stub; the server goes on answering.
    func testARenderedBodyStopsAtTheCap() throws {
        let template = String(repeating: "{{{request.body}}}", count: 10_000)
        try stub(#"{"name": "amplifier", "request": {"urlPath": "/amp"}, "response": {"body": "\#(template)", "transformers": ["response-template"]}}"#)
        try stub(#"{"request": {"urlPath": "/still"}, "response": {"body": "here"}}"#)
        let response = try server.request("POST", "/amp", headers: [("Content-Type", "text/plain")], body: Array(repeating: 0x61, count: 1 << 20))
        XCTAssertEqual(response.status, 500)
        let hint = try XCTUnwrap(response.header("X-Mock-Hint"))
        XCTAssertTrue(hint.contains("amplifier") && hint.contains("--max-stub-body-bytes"), hint)
        XCTAssertLessThan(response.body.count, 1000)
        XCTAssertEqual(try server.request("GET", "/still").text, "here")
        // Under the cap the same stub answers.
        XCTAssertEqual(try server.request("POST", "/amp", headers: [("Content-Type", "text/plain")], body: Array("ab".utf8)).body.count, 20_000)
    }

    func testTheCapIsTheFlagsAndCountsRandomValuesToo() throws {
        server.stop()
        server = try TestServer(stubs: { clock in
            StubLoading.emptyStore(clock: clock, limits: StubLimits(maxBodyBytes: 4096))
        })
        try stub(#"{"name": "dice", "request": {"urlPath": "/r"}, "response": {"body": "{{randomValue length=10000 type='NUMERIC'}}", "transformers": ["response-template"]}}"#)
        try stub(#"{"request": {"urlPath": "/small"}, "response": {"body": "{{randomValue length=4000 type='HEXADECIMAL' uppercase=true}}", "transformers": ["response-template"]}}"#)
        let big = try server.request("GET", "/r")
        XCTAssertEqual(big.status, 500)
        XCTAssertTrue(big.header("X-Mock-Hint")?.contains("dice") == true)
        let small = try server.request("GET", "/small")
        XCTAssertEqual(small.body.count, 4000)
        XCTAssertTrue(small.text.allSatisfy { "0123456789ABCDEF".contains($0) }, small.text)
        XCTAssertGreaterThan(Set(small.text).count, 10, "the characters vary")
    }
}
