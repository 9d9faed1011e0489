import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// API.md revision 2, §1 and §0: the login body decoded as Vapor decodes it, exact tokens, hints.
final class RowsFidelityTests: MockServerTestCase {
    private let email = "johndown@exmample.com", password = "1234567"

    private func token() throws -> String {
        let r = try server.request("POST", "/auth/login", json: ["email": email, "password": password])
        return try XCTUnwrap(r.jsonObject?["token"] as? String, r.text)
    }

    /// The hint is in `X-Mock-Hint`, and the body is exactly what it would be without it.
    private func assertHinted(_ r: TestResponse, _ status: Int, body: String, hintMentions word: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertEqual(r.text, body, file: file, line: line)
        let hint = r.header("X-Mock-Hint") ?? ""
        XCTAssertTrue(hint.contains(word), "hint: \(hint)", file: file, line: line)
        XCTAssertTrue(hint.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "hint must be ASCII: \(hint)", file: file, line: line)
    }

    func testAFormLoginAsAlamofireSendsItIsAccepted() throws {
        let r = try server.request("POST", "/auth/login", form: [("email", email), ("password", password)])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertNotNil(UUID(uuidString: r.jsonObject?["token"] as? String ?? ""))
        XCTAssertNil(r.header("X-Mock-Hint"))
    }

    func testAMultipartLoginIsAccepted() throws {
        let body = multipart([("email", email), ("password", password)])
        let r = try server.request("POST", "/auth/login", headers: [("Content-Type", body.contentType)], body: body.body)
        XCTAssertEqual(r.status, 200, r.text)
    }

    func testNoContentTypeIs415InVaporsShapeWithAHint() throws {
        let r = try server.request("POST", "/auth/login", body: Array(#"{"email":"johndown@exmample.com","password":"1234567"}"#.utf8))
        assertHinted(r, 415, body: #"{"error":true,"reason":"Unsupported Media Type"}"#, hintMentions: "Content-Type")
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
    }

    func testAnotherContentTypeIs415WithAHint() throws {
        let r = try server.request("POST", "/auth/login", headers: [("Content-Type", "text/plain")],
                                   body: Array(#"{"email":"johndown@exmample.com","password":"1234567"}"#.utf8))
        assertHinted(r, 415, body: #"{"error":true,"reason":"Unsupported Media Type"}"#, hintMentions: "application/json")
    }

    func testJSONUnderAFormContentTypeIs400WithAHint() throws {
        let r = try server.request("POST", "/auth/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Array(#"{"email":"johndown@exmample.com","password":"1234567"}"#.utf8))
        assertHinted(r, 400, body: #"{"error":true,"reason":"Value required for key 'email'"}"#, hintMentions: "JSON")
    }

    func testAFormMissingAFieldIs400WithoutAHint() throws {
        let r = try server.request("POST", "/auth/login", form: [("email", email)])
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.text, #"{"error":true,"reason":"Value required for key 'password'"}"#)
        XCTAssertNil(r.header("X-Mock-Hint"))
    }

    func testBearerIs403WithAHint() throws {
        let token = try token()
        let r = try server.request("GET", "/rows/1", headers: [("Authorization", "Bearer \(token)")])
        assertHinted(r, 403, body: #"{"error":true,"reason":"Invalid token"}"#, hintMentions: "Bearer")
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", token)]).status, 200)
    }

    func testTokensAreComparedExactly() throws {
        let token = try token()
        let r = try server.request("GET", "/rows/1", headers: [("Authorization", token.uppercased())])
        XCTAssertEqual(r.status, 403, r.text)
        XCTAssertEqual(r.text, #"{"error":true,"reason":"Invalid token"}"#)
    }

    func testTokenControlsOfTheRowsApp() throws {
        let rows = try XCTUnwrap(server.app.system(named: "rows"))
        let a = try token(), b = try token(), c = try token()
        XCTAssertEqual(rows.revokeTokens(a), 1)
        XCTAssertEqual(rows.revokeTokens(a), 0, "already revoked")
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", a)]).status, 403)
        // No expired answer of its own: an expired token is answered as an unknown one.
        XCTAssertEqual(rows.expireTokens(b), 1)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", b)]).status, 403)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", c)]).status, 200)
        XCTAssertEqual(rows.revokeTokens(nil), 1, "c was the only one still valid")
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", c)]).status, 403)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", try token())]).status, 200)
    }
}
