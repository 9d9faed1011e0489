import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// The hints for Authorization mistakes and expired tokens (rows and SkyZone), refused as each
/// server does.
final class AuthorizationHintsTests: MockServerTestCase {
    typealias Seed = MusbookingSeedData
    private func hint(_ r: TestResponse, mentions word: String, file: StaticString = #filePath, line: UInt = #line) {
        let hint = r.header("X-Mock-Hint") ?? ""
        XCTAssertTrue(hint.contains(word), "hint: \(hint)", file: file, line: line)
        XCTAssertTrue(hint.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "hint must be ASCII: \(hint)", file: file, line: line)
    }

    func testARawTokenWhereBearerIsExpectedIsRefusedAsTheServerDoesWithAHint() throws {
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let raw = try server.request("GET", "/api/users/user", headers: [("Authorization", token)])
        assertText(raw, 401, "Access denied")
        hint(raw, mentions: "Bearer <token>")
        let whole = try server.request("GET", "/api/users/user", headers: [("Authorization", #"Bearer {"key":"x","token":"\#(token)"}"#)])
        assertText(whole, 401, "Access denied")
        hint(whole, mentions: "whole login answer")
        // An unknown token in the right form is not hinted: nothing to say beyond the answer.
        XCTAssertNil(try server.request("GET", "/api/users/user", headers: bearer("nope")).header("X-Mock-Hint"))

        let signIn = try server.request("POST", "/tokens", json: ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        let skyToken = (signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String ?? ""
        XCTAssertFalse(skyToken.isEmpty, signIn.text)
        let sky = try server.request("GET", "/customer", headers: [("Authorization", skyToken)])
        XCTAssertEqual(sky.status, 401)
        XCTAssertEqual(sky.jsonObject?["error"] as? String, "Authorization must be \"Bearer <token>\"", "the header is there")
        hint(sky, mentions: "Bearer <token>")
        // The entry in the journal carries the hint too.
        let entry = try server.journal("path=/customer&method=GET").last
        XCTAssertEqual(entry?["hint"] as? String, sky.header("X-Mock-Hint"))
    }

    func testTheWholeLoginAnswerSentAsTheRowsTokenIsHinted() throws {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        XCTAssertEqual(login.status, 200)
        let r = try server.request("GET", "/rows/1", headers: [("Authorization", login.text)])
        XCTAssertEqual(r.status, 403)
        XCTAssertEqual(r.jsonObject?["reason"] as? String, "Invalid token")
        hint(r, mentions: "whole login answer")
    }

    func testExpiredTokensOnRowsAndSkyZoneAreRefusedAsUnknownWithAHint() throws {
        func rowsToken() throws -> String {
            try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
                .jsonObject?["token"] as? String ?? ""
        }
        func skyToken() throws -> String {
            let r = try server.request("POST", "/tokens", json: ["username": "skyzonecustomer@gmail.com", "password": "password1"])
            return (r.jsonObject?["auth"] as? [String: Any])?["token"] as? String ?? ""
        }
        let one = try rowsToken(), other = try rowsToken()
        XCTAssertEqual(try server.request("POST", "/__mock/tokens/expire", json: ["system": "rows", "token": one]).status, 200)
        let expired = try server.request("GET", "/rows/1", headers: [("Authorization", one)])
        XCTAssertEqual(expired.status, 403)
        hint(expired, mentions: "expired")
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("Authorization", other)]).status, 200)
        // Every token of the system at once.
        XCTAssertEqual(try server.request("POST", "/__mock/tokens/expire", json: ["system": "rows"]).status, 200)
        hint(try server.request("GET", "/rows/1", headers: [("Authorization", other)]), mentions: "expired")
        // A revoked token is unknown, not expired.
        let revoked = try rowsToken()
        _ = try server.request("POST", "/__mock/tokens/revoke", json: ["system": "rows", "token": revoked])
        let unknown = try server.request("GET", "/rows/1", headers: [("Authorization", revoked)])
        XCTAssertEqual(unknown.status, 403)
        XCTAssertNil(unknown.header("X-Mock-Hint"))

        let sky = try skyToken(), skyOther = try skyToken()
        _ = try server.request("POST", "/__mock/tokens/expire", json: ["system": "skyzone", "token": sky])
        let skyExpired = try server.request("GET", "/customer", headers: bearer(sky))
        XCTAssertEqual(skyExpired.status, 401)
        XCTAssertEqual(skyExpired.jsonObject?["error"] as? String, "Invalid or expired token")
        hint(skyExpired, mentions: "expired")
        XCTAssertEqual(try server.request("GET", "/customer", headers: bearer(skyOther)).status, 200)
        _ = try server.request("POST", "/__mock/tokens/expire", json: [:] as [String: Any])
        hint(try server.request("GET", "/customer", headers: bearer(skyOther)), mentions: "expired")
        // A reset forgets them: an old token is then simply unknown.
        _ = try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite)
        XCTAssertNil(try server.request("GET", "/customer", headers: bearer(skyOther)).header("X-Mock-Hint"))
    }
}
