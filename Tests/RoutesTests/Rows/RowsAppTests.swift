import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

final class RowsAppTests: MockServerTestCase {

    private func login(email: String = "johndown@exmample.com", password: String = "1234567") throws -> TestResponse {
        try server.request("POST", "/auth/login", json: ["email": email, "password": password])
    }

    private func token() throws -> String {
        let response = try login()
        XCTAssertEqual(response.status, 200)
        return try XCTUnwrap(response.jsonObject?["token"] as? String)
    }

    private func assertError(_ response: TestResponse, _ status: Int, reason: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        let body = response.jsonObject
        XCTAssertEqual(body?["error"] as? Bool, true, response.text, file: file, line: line)
        let text = body?["reason"] as? String
        XCTAssertFalse(text?.isEmpty ?? true, "reason missing: \(response.text)", file: file, line: line)
        if let reason { XCTAssertEqual(text, reason, file: file, line: line) }
    }

    private func reason(_ response: TestResponse) -> String {
        response.jsonObject?["reason"] as? String ?? ""
    }

    // MARK: - Login

    func testLoginReturnsAUUIDToken() throws {
        let response = try login()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let body = try XCTUnwrap(response.jsonObject)
        XCTAssertEqual(Array(body.keys), ["token"])
        let token = try XCTUnwrap(body["token"] as? String)
        XCTAssertNotNil(UUID(uuidString: token), token)
    }

    func testEveryLoginGetsAFreshTokenAndOldOnesStayValid() throws {
        let first = try token()
        let second = try token()
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", first)]).status, 200)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", second)]).status, 200)
    }

    func testTokensDoNotExpireWithTime() throws {
        let token = try token()
        server.clock.advance(by: 365 * 86_400)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", token)]).status, 200)
    }

    func testWrongPasswordIs401() throws {
        assertError(try login(password: "123456"), 401, reason: "Invalid Credentials")
    }

    func testUnknownEmailIs401() throws {
        assertError(try login(email: "john@example.com"), 401, reason: "Invalid Credentials")
    }

    func testEmailIsComparedExactly() throws {
        assertError(try login(email: "JohnDown@exmample.com"), 401, reason: "Invalid Credentials")
        assertError(try login(email: "johndown@example.com"), 401, reason: "Invalid Credentials")
    }

    func testMalformedJSONIs400() throws {
        let response = try server.request("POST", "/auth/login", jsonText: "{\"email\": \"johndown@exmample.com\",")
        assertError(response, 400)
        XCTAssertTrue(reason(response).contains("JSON"), response.text)
    }

    func testEmptyJSONBodyIs400() throws {
        assertError(try server.request("POST", "/auth/login", headers: [("Content-Type", "application/json")]), 400)
    }

    func testNonObjectBodyIs400() throws {
        assertError(try server.request("POST", "/auth/login", jsonText: "[\"johndown@exmample.com\", \"1234567\"]"), 400)
    }

    func testMissingFieldIs400NamingTheField() throws {
        let noPassword = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com"])
        assertError(noPassword, 400)
        XCTAssertTrue(reason(noPassword).contains("password"), noPassword.text)
        let noEmail = try server.request("POST", "/auth/login", json: ["password": "1234567"])
        assertError(noEmail, 400)
        XCTAssertTrue(reason(noEmail).contains("email"), noEmail.text)
    }

    func testNonStringFieldIs400() throws {
        let response = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": 1234567])
        assertError(response, 400)
        XCTAssertTrue(reason(response).contains("password"), response.text)
        assertError(try server.request("POST", "/auth/login", jsonText: "{\"email\": null, \"password\": \"1234567\"}"), 400)
    }

    func testLoginNeverEchoesThePassword() throws {
        for response in [try login(password: "s3cret-pw"),
                         try server.request("POST", "/auth/login", json: ["email": 5, "password": "s3cret-pw"])] {
            XCTAssertFalse(response.text.contains("s3cret-pw"), response.text)
        }
    }

    // MARK: - Rows

    func testFirstPageHoldsRows0To19() throws {
        let response = try server.request("GET", "/rows/1", headers: [("authorization", try token())])
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let rows = try XCTUnwrap(response.jsonArray as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["id"] as? Int }, (0..<20).map { $0 })
        for row in rows {
            XCTAssertEqual(Set(row.keys), ["id", "text"])
            let text = try XCTUnwrap(row["text"] as? String)
            XCTAssertTrue((250...300).contains(text.count), "\(text.count): \(text)")
            XCTAssertTrue(text.hasSuffix("."), text)
            XCTAssertTrue(text.first?.isUppercase ?? false, text)
            XCTAssertGreaterThanOrEqual(text.filter { $0 == "." }.count, 2, text)
        }
        // Key order id, text, as the document prints it.
        XCTAssertTrue(response.text.hasPrefix("[{\"id\":0,\"text\":\""), String(response.text.prefix(40)))
    }

    func testPagesAreDisjointAndDeterministic() throws {
        let token = try token()
        let page3 = try server.request("GET", "/rows/3", headers: [("authorization", token)])
        let rows = try XCTUnwrap(page3.jsonArray as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["id"] as? Int }, (40..<60).map { $0 })
        XCTAssertEqual(try server.request("GET", "/rows/3", headers: [("authorization", token)]).body, page3.body)
        // Another server from the same seed serves the same bytes (clients cache and compare).
        let other = try TestServer(random: SeededRandomSource(seed: 7))
        let otherLogin = try other.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        let otherToken = try XCTUnwrap(otherLogin.jsonObject?["token"] as? String)
        XCTAssertEqual(try other.request("GET", "/rows/3", headers: [("authorization", otherToken)]).body, page3.body)
        // Texts vary between rows.
        XCTAssertEqual(Set(rows.compactMap { $0["text"] as? String }).count, 20)
    }

    func testLastPageIsServedAndThenAnEmptyArray() throws {
        let token = try token()
        let last = try server.request("GET", "/rows/50", headers: [("authorization", token)])
        XCTAssertEqual(last.status, 200)
        let rows = try XCTUnwrap(last.jsonArray as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["id"] as? Int }, (980..<1000).map { $0 })
        for page in ["51", "1000", "99999999999999999999999"] {
            let past = try server.request("GET", "/rows/\(page)", headers: [("authorization", token)])
            XCTAssertEqual(past.status, 200, page)
            XCTAssertEqual(past.text, "[]", page)
            XCTAssertEqual(past.header("Content-Type"), "application/json; charset=utf-8")
        }
    }

    func testAllThousandRowsAreServedOnce() throws {
        let token = try token()
        var ids: [Int] = []
        for page in 1... {
            let rows = try XCTUnwrap(try server.request("GET", "/rows/\(page)", headers: [("authorization", token)]).jsonArray)
            if rows.isEmpty || page > 100 { break }
            ids += rows.compactMap { ($0 as? [String: Any])?["id"] as? Int }
        }
        XCTAssertEqual(ids, Array(0..<1000))
    }

    func testHeaderNameIsCaseInsensitive() throws {
        XCTAssertEqual(try server.request("GET", "/rows/2", headers: [("Authorization", try token())]).status, 200)
        XCTAssertEqual(try server.request("GET", "/rows/2", headers: [("AUTHORIZATION", try token())]).status, 200)
    }

    func testMissingTokenIs403() throws {
        assertError(try server.request("GET", "/rows/1"), 403, reason: "Invalid token")
    }

    func testUnknownTokenIs403() throws {
        assertError(try server.request("GET", "/rows/1", headers: [("authorization", UUID().uuidString.lowercased())]), 403,
                    reason: "Invalid token")
        assertError(try server.request("GET", "/rows/1", headers: [("authorization", "")]), 403, reason: "Invalid token")
    }

    func testBearerTokenIs403LikeTheOriginal() throws {
        assertError(try server.request("GET", "/rows/1", headers: [("authorization", "Bearer \(try token())")]), 403,
                    reason: "Invalid token")
    }

    func testPageThatIsNotAPositiveIntegerIs400() throws {
        let token = try token()
        for page in ["0", "00", "-1", "abc", "1.5", "+1", "1e2", "%20", "%D0%B0"] {
            assertError(try server.request("GET", "/rows/\(page)", headers: [("authorization", token)]), 400)
        }
    }

    func testBadPageWithoutTokenIs403First() throws {
        assertError(try server.request("GET", "/rows/0"), 403, reason: "Invalid token")
    }

    func testResetForgetsTokens() throws {
        let token = try token()
        server.app.reset()
        assertError(try server.request("GET", "/rows/1", headers: [("authorization", token)]), 403, reason: "Invalid token")
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", try self.token())]).status, 200)
    }

    func testWrongMethodIs405() throws {
        let response = try server.request("GET", "/auth/login")
        XCTAssertEqual(response.status, 405)
        XCTAssertNotNil(response.header("Allow"))
    }
}
