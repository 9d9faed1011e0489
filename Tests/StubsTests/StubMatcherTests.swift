import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// WireMock 2.35's matchers beyond the WireMock test translations (wiremock-tests/matchers.json):
/// the date matchers on the mock's clock and their refusals, json-unit placeholders, logical
/// nesting bounds, binaryEqualTo's place, host and port. Over real sockets.
final class StubMatcherTests: MockServerTestCase {
    private func post(_ json: String) throws -> TestResponse { try server.request("POST", "/__admin/mappings", jsonText: json) }

    /// Where the 422 body points: WireMock's place, the matcher holding the operator.
    private func pointer(_ response: TestResponse) -> String? {
        response.jsonObject.flatMap { ($0["errors"] as? [[String: Any]])?.first?["source"] as? [String: Any] }?["pointer"] as? String
    }

    /// Where this server's hint (`X-Mock-Hint: pointer: reason`) points: the field at fault.
    private func hintPointer(_ response: TestResponse) -> String? {
        response.header("X-Mock-Hint")?.split(separator: ":", maxSplits: 1).first.map(String.init)
    }

    func testDateMatchersReadFormatsAndTruncations() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/d", "headers": {"X-D": {"equalToDateTime": "2021-06-01T00:00:00Z", "actualFormat": "yyyyMMdd", "truncateActual": "first day of month"}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/d", headers: [("X-D", "20210617")]).status, 404, "a date without a zone is local: truncateActual applies to zoned values only, as in WireMock")
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/z", "headers": {"X-D": {"equalToDateTime": "2021-06-01T00:00:00Z", "actualFormat": "yyyy-MM-dd HH:mm XXX", "truncateActual": "FIRST_DAY_OF_MONTH"}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/z", headers: [("X-D", "2021-06-17 10:30 Z")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/z", headers: [("X-D", "2021-07-17 10:30 +02:00")]).status, 404)
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/leap", "headers": {"X-D": {"before": "2024-03-01"}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/leap", headers: [("X-D", "2024-02-29")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/leap", headers: [("X-D", "2023-02-29")]).status, 404, "no such day")
        XCTAssertEqual(try server.request("GET", "/leap", headers: [("X-D", String(repeating: "1", count: 10_000))]).status, 404)
    }

    func testDateMatcherRefusalsNameTheField() throws {
        let letter = try post(#"{"request": {"urlPath": "/r", "headers": {"X-D": {"before": "now", "actualFormat": "yyyy-ww"}}}}"#)
        XCTAssertEqual(letter.status, 422)
        XCTAssertEqual(hintPointer(letter), "/request/headers/X-D/actualFormat")
        XCTAssertEqual(pointer(letter), "/request/headers/X-D/actualFormat", "a refusal of this server's own: its pointer")
        let truncation = try post(#"{"request": {"urlPath": "/r", "headers": {"X-D": {"before": "now", "truncateExpected": "first week"}}}}"#)
        XCTAssertEqual(hintPointer(truncation), "/request/headers/X-D/truncateExpected")
        let unit = try post(#"{"request": {"urlPath": "/r", "headers": {"X-D": {"before": "now +3 fortnights"}}}}"#)
        XCTAssertEqual(hintPointer(unit), "/request/headers/X-D/before")
    }

    func testDateMatchersUseTheMocksClockAtEachMatch() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/now", "queryParameters": {"t": {"after": "now -1 years"}}}}"#).status, 201)
        let clock = server.app.stubs.now()
        let month = ISO8601DateFormatter().string(from: clock.addingTimeInterval(-30 * 86400))
        let twoYears = ISO8601DateFormatter().string(from: clock.addingTimeInterval(-2 * 366 * 86400))
        XCTAssertEqual(try server.request("GET", "/now?t=" + month).status, 200)
        XCTAssertEqual(try server.request("GET", "/now?t=" + twoYears).status, 404)
    }

    func testPlaceholdersInNestedArraysAndMissingMatcherNames() throws {
        XCTAssertEqual(try post(##"{"request": {"urlPath": "/p", "bodyPatterns": [{"equalToJson": {"items": [{"id": "${json-unit.any-number}", "tag": "#{json-unit.ignore}"}], "m": "${json-unit.matches:x}"}, "ignoreExtraElements": true}]}}"##).status, 201)
        XCTAssertEqual(try server.request("POST", "/p", headers: [("Content-Type", "application/json")], body: Array(#"{"items": [{"id": 1, "tag": 2}], "m": 1}"#.utf8)).status, 404,
                       "json-unit.matches needs a matcher WireMock never registers")
        XCTAssertEqual(try post(##"{"request": {"urlPath": "/q", "bodyPatterns": [{"equalToJson": {"items": [{"id": "${json-unit.any-number}", "tag": "#{json-unit.ignore}"}]}, "ignoreExtraElements": true, "ignoreArrayOrder": true}]}}"##).status, 201)
        XCTAssertEqual(try server.request("POST", "/q", headers: [("Content-Type", "application/json")], body: Array(#"{"items": [{"id": "x"}, {"id": 1, "tag": null, "more": 1}]}"#.utf8)).status, 200)
        let bad = try post(#"{"request": {"urlPath": "/b", "bodyPatterns": [{"equalToJson": {"a": "${json-unit.regex}(a)\\1"}}]}}"#)
        XCTAssertEqual(bad.status, 422, "a regex the linear engine cannot run is refused")
        let serialize = try post(#"{"request": {"urlPath": "/s", "bodyPatterns": [{"equalToJson": {"a": 1}, "serializeFormat": "x"}]}}"#)
        XCTAssertEqual(hintPointer(serialize), "/request/bodyPatterns/0/serializeFormat")
        XCTAssertEqual(pointer(serialize), "/request/bodyPatterns/0/serializeFormat", "WireMock ignores it: this server's refusal")
    }

    func testLogicalNestingIsCappedAndBinaryEqualToIsForBodiesOnly() throws {
        var deep = #"{"equalTo": "x"}"#
        for _ in 0..<20 { deep = #"{"or": ["# + deep + "]}" }
        let nested = try post(#"{"request": {"urlPath": "/deep", "headers": {"X": "# + deep + "}}}")
        XCTAssertEqual(nested.status, 422)
        XCTAssertTrue(nested.text.contains("nest deeper"), nested.text)
        let header = try post(#"{"request": {"urlPath": "/bin", "headers": {"X": {"binaryEqualTo": "AQID"}}}}"#)
        XCTAssertEqual(hintPointer(header), "/request/headers/X/binaryEqualTo")
        XCTAssertEqual(pointer(header), "/request/headers/X")
        let base64 = try post(#"{"request": {"urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": "!!"}]}}"#)
        XCTAssertEqual(base64.status, 422)
    }

    func testHostAndPortComeFromTheHostHeader() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/h", "host": {"equalTo": "api.example"}, "port": 8443}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/h", headers: [("Host", "api.example:8443")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/h", headers: [("Host", "api.example")]).status, 404, "no port is 80")
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/s", "scheme": "ftp"}}"#).status, 422)
    }

    func testMultipartPatternsReadEachPart() throws {
        XCTAssertEqual(try post(#"{"request": {"method": "POST", "urlPath": "/mp", "multipartPatterns": [{"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "form-data"}}}, {"headers": {"Content-Disposition": {"contains": "name=\"doc\""}}, "bodyPatterns": [{"contains": "hello"}]}]}}"#).status, 201)
        func send(_ parts: [(String, String)], boundary: String = "\"b-1\"") throws -> Int {
            var body = ""
            for (name, text) in parts { body += "--b-1\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(text)\r\n" }
            body += "--b-1--\r\n"
            return try server.request("POST", "/mp", headers: [("Content-Type", "multipart/form-data; boundary=" + boundary)], body: Array(body.utf8)).status
        }
        XCTAssertEqual(try send([("a", "x"), ("doc", "say hello\r\nthere")]), 200, "a quoted boundary; a part body with a line break")
        XCTAssertEqual(try send([("a", "x"), ("doc", "bye")]), 404)
        XCTAssertEqual(try send([("doc", "hello")], boundary: "other"), 404, "no part under another boundary")
        // 200,000 dashes: the delimiter search stays a bounded pass.
        XCTAssertEqual(try send([("doc", String(repeating: "-", count: 200_000))]), 404)
        let type = try post(#"{"request": {"multipartPatterns": [{"matchingType": "SOME"}]}}"#)
        XCTAssertEqual(hintPointer(type), "/request/multipartPatterns/0/matchingType")
    }
}
