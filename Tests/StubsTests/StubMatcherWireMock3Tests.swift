import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// WireMock 3's matchers, accepted here though WireMock 2.35 refuses them (docs/stubs.md,
/// "WireMock 3 matchers"): `not`, `hasExactly`/`includes`, `formParameters`, `urlPathTemplate`
/// with `pathParameters`. Over real sockets.
final class StubMatcherWireMock3Tests: MockServerTestCase {
    private func post(_ json: String) throws -> TestResponse { try server.request("POST", "/__admin/mappings", jsonText: json) }

    func testNotInvertsItsMatcherAndAMissingValue() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/not", "headers": {"X-A": {"not": {"equalTo": "no"}}}}, "response": {"body": "ok"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/not", headers: [("X-A", "yes")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/not", headers: [("X-A", "no")]).status, 404)
        // not(equalTo) of a missing header: equalTo(null) is false, so not matches.
        XCTAssertEqual(try server.request("GET", "/not").status, 200)
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/notabsent", "headers": {"X-A": {"not": {"absent": true}}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/notabsent").status, 404)
    }

    func testHasExactlyAndIncludesOnARepeatedQueryParameter() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/exact", "queryParameters": {"q": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/exact?q=2&q=1").status, 200)
        XCTAssertEqual(try server.request("GET", "/exact?q=1&q=2&q=3").status, 404, "a third value")
        XCTAssertEqual(try server.request("GET", "/exact?q=1").status, 404)
        XCTAssertEqual(try server.request("GET", "/exact").status, 404)
        XCTAssertEqual(try post(#"{"request": {"urlPath": "/incl", "headers": {"X-R": {"includes": [{"equalTo": "a"}, {"matches": "b+"}]}}}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/incl", headers: [("X-R", "bb"), ("X-R", "c"), ("X-R", "a")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/incl", headers: [("X-R", "a")]).status, 404)
        let empty = try post(#"{"request": {"urlPath": "/e", "queryParameters": {"q": {"includes": []}}}}"#)
        XCTAssertEqual(empty.status, 422)
        XCTAssertEqual(empty.jsonObject.flatMap { ($0["errors"] as? [[String: Any]])?.first?["source"] as? [String: Any] }?["pointer"] as? String,
                       "/request/queryParameters/q/includes")
    }

    func testFormParametersReadAnURLEncodedBodyOnly() throws {
        XCTAssertEqual(try post(#"{"request": {"method": "POST", "urlPath": "/form", "formParameters": {"name": {"equalTo": "a b"}, "tag": {"hasExactly": [{"equalTo": "x"}, {"equalTo": "y"}]}}}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/form", form: [("name", "a b"), ("tag", "y"), ("tag", "x")]).status, 200)
        XCTAssertEqual(try server.request("POST", "/form", form: [("name", "a c"), ("tag", "y"), ("tag", "x")]).status, 404)
        let text = try server.request("POST", "/form", headers: [("Content-Type", "text/plain")], body: Array("name=a+b&tag=x&tag=y".utf8))
        XCTAssertEqual(text.status, 404, "not a form: no form parameters")
    }

    func testURLPathTemplateWithPathParameters() throws {
        XCTAssertEqual(try post(#"{"request": {"urlPathTemplate": "/contacts/{id}/addresses/{addressId}", "pathParameters": {"id": {"matches": "[0-9]+"}, "addressId": {"equalTo": "home office"}}}, "response": {"body": "t"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/contacts/12/addresses/home%20office?x=1").text, "t")
        XCTAssertEqual(try server.request("GET", "/contacts/ab/addresses/home%20office").status, 404)
        XCTAssertEqual(try server.request("GET", "/contacts/12/addresses/home%20office/more").status, 404, "a variable is one segment")
        let unknown = try post(#"{"request": {"urlPathTemplate": "/c/{id}", "pathParameters": {"other": {"equalTo": "1"}}}}"#)
        XCTAssertEqual(unknown.status, 422, unknown.text)
        XCTAssertTrue(unknown.text.contains("/request/pathParameters/other"), unknown.text)
        let alone = try post(#"{"request": {"urlPath": "/c", "pathParameters": {"id": {"equalTo": "1"}}}}"#)
        XCTAssertEqual(alone.status, 422, "pathParameters need a template")
    }
}
