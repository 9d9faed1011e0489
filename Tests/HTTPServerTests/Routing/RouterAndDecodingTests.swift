import Foundation
import XCTest
@testable import HTTPServer
import TestSupport

/// Routing and the decoding helpers handlers rely on.
final class RouterAndDecodingTests: XCTestCase {
    func testPatternsTrailingSlashAndParameters() {
        var router = Router()
        var context = RequestContext()
        router.get("/api/categories/:id") { r, context in .text(.ok, context.pathParameters["id"] ?? "") }
        let request = HTTPRequest(method: .get, target: "/api/categories/7/")
        guard case .http(let handler) = router.match(request, context: &context) else { return XCTFail("no match") }
        XCTAssertEqual(handler(request, &context).body, Array("7".utf8))
        let other = HTTPRequest(method: .get, target: "/api/categories/7/extra")
        guard case .notFound = router.match(other, context: &context) else { return XCTFail("should not match") }
    }

    func testStaticRoutesIgnoreEmptySegmentsAndStaticWinsOverParameters() {
        var router = Router()
        var context = RequestContext()
        router.post("/auth/login") { _ in .text(.ok, "static") }
        router.post("/auth/:action") { _ in .text(.ok, "param") }
        router.get("/auth/:action") { r, context in .text(.ok, context.pathParameters["action"] ?? "") }
        for path in ["/auth/login", "/auth/login/", "//auth//login"] {
            let request = HTTPRequest(method: .post, target: path)
            guard case .http(let handler) = router.match(request, context: &context) else { return XCTFail(path) }
            XCTAssertEqual(handler(request, &context).body, Array("static".utf8), path)
        }
        let head = HTTPRequest(method: .head, target: "/auth/x")
        guard case .http(let handler) = router.match(head, context: &context) else { return XCTFail("HEAD falls back to GET") }
        XCTAssertEqual(handler(head, &context).body, Array("x".utf8))
        let put = HTTPRequest(method: .put, target: "/auth/login")
        guard case .methodNotAllowed(let allowed) = router.match(put, context: &context) else { return XCTFail("405 expected") }
        XCTAssertEqual(Set(allowed), [.post, .get, .head, .options])
    }

    func testPercentDecoding() {
        XCTAssertEqual(FormDecoding.percentDecode("a+b%20c%D0%96", plusIsSpace: true), "a b cЖ")
        XCTAssertEqual(FormDecoding.percentDecode("a+b", plusIsSpace: false), "a+b")
        XCTAssertEqual(FormDecoding.percentDecode("100%", plusIsSpace: true), "100%")
        XCTAssertEqual(FormDecoding.percentDecode("%zz%4", plusIsSpace: true), "%zz%4")
        XCTAssertEqual(FormDecoding.percentDecode("%FF", plusIsSpace: true), "\u{FFFD}")
    }

    func testFormParsingKeepsOrderAndIgnoresCase() {
        let p = FormDecoding.parseForm("Login=a&PASSWORD=b&flag&=x&login=c")
        XCTAssertEqual(p["login"], "a")
        XCTAssertEqual(p["password"], "b")
        XCTAssertEqual(p["flag"], "")
        XCTAssertEqual(p.items.count, 5)
    }

    func testMultipartBoundaryAndMalformedBodies() {
        XCTAssertEqual(Multipart.boundary(fromContentType: "multipart/form-data; boundary=\"abc def\""), "abc def")
        XCTAssertNil(Multipart.boundary(fromContentType: "application/json"))
        XCTAssertNil(Multipart.parse(body: Array("no boundary here".utf8), boundary: "b"))
        XCTAssertNil(Multipart.parse(body: Array("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nunterminated".utf8), boundary: "b"))
    }
}
