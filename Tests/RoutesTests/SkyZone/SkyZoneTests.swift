import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

final class SkyZoneTests: MockServerTestCase {
    private static let profileKeys: Set<String> = [
        "id", "email", "firstName", "lastName", "birthday", "lastVisitLocationName", "lastVisitDate",
        "loyaltyStatusBanner", "address", "phoneNumber", "mobilePhoneNumber", "gender", "photo", "skySockSize",
        "emergencyContactName", "emergencyContactNumber", "external-token", "external-type",
    ]
    private static let addressKeys: Set<String> = ["street", "city", "countryCode", "stateCode", "postalCode"]
    private static let seededSocialToken = "asdf8a7sdf8a7sdf987as8d7f9a7sd8f98a9"

    private func post(_ path: String, _ body: [String: Any]) throws -> TestResponse {
        try server.request("POST", path, json: body)
    }

    private func assertError(_ response: TestResponse, _ status: Int, mentions word: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        let body = response.jsonObject
        XCTAssertEqual(body?.count, 1, response.text, file: file, line: line)
        let message = body?["error"] as? String ?? ""
        XCTAssertFalse(message.isEmpty, response.text, file: file, line: line)
        if let word { XCTAssertTrue(message.contains(word), message, file: file, line: line) }
    }

    /// Checks the document's profile shape: every key, the right types, the nested address.
    private func assertProfileShape(_ profile: [String: Any]?, social: Bool,
                                    file: StaticString = #filePath, line: UInt = #line) {
        guard let profile else { return XCTFail("no profile", file: file, line: line) }
        // Every profile has every key, the social pair empty for an e-mail account (API.md §3).
        let expected = SkyZoneTests.profileKeys
        if !social {
            XCTAssertEqual(profile["external-token"] as? String, "", file: file, line: line)
            XCTAssertEqual(profile["external-type"] as? String, "", file: file, line: line)
        }
        XCTAssertEqual(Set(profile.keys), expected, file: file, line: line)
        XCTAssertNotNil(profile["id"] as? Int, "id must be a number", file: file, line: line)
        XCTAssertFalse(profile["id"] is String, file: file, line: line)
        for key in expected where key != "id" && key != "address" {
            XCTAssertNotNil(profile[key] as? String, "\(key) must be a string", file: file, line: line)
        }
        let address = profile["address"] as? [String: String]
        XCTAssertEqual(address.map { Set($0.keys) }, SkyZoneTests.addressKeys, file: file, line: line)
    }

    // MARK: - POST /customer

    func testCreateWithUsernameReturnsTheDocumentsProfile() throws {
        let response = try post("/customer", ["username": "new.jumper@gmail.com", "password": "password1"])
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let profile = response.jsonObject
        assertProfileShape(profile, social: false)
        XCTAssertEqual(profile?["id"] as? Int, 112_352_352_236)
        XCTAssertEqual(profile?["email"] as? String, "new.jumper@gmail.com")
        XCTAssertEqual(profile?["firstName"] as? String, "")
        XCTAssertEqual(profile?["address"] as? [String: String],
                       ["street": "", "city": "", "countryCode": "", "stateCode": "", "postalCode": ""])
        XCTAssertFalse(response.text.contains("password1"))
        XCTAssertNil(profile?["password"])
    }

    func testIdsCountUpFromNextId() throws {
        let a = try post("/customer", ["username": "a@example.com", "password": "x1"]).jsonObject?["id"] as? Int
        let b = try post("/customer", ["external-token": "tok-b", "external-type": "twitter"]).jsonObject?["id"] as? Int
        XCTAssertEqual(a, 112_352_352_236)
        XCTAssertEqual(b, 112_352_352_237)
    }

    func testCreateWithSocialTokenEchoesTheSocialFields() throws {
        for (index, type) in ["facebook", "twitter", "instagram"].enumerated() {
            let response = try post("/customer", ["external-token": "oauth-\(index)", "external-type": type])
            XCTAssertEqual(response.status, 200, response.text)
            let profile = response.jsonObject
            assertProfileShape(profile, social: true)
            XCTAssertEqual(profile?["external-token"] as? String, "oauth-\(index)")
            XCTAssertEqual(profile?["external-type"] as? String, type)
            XCTAssertEqual(profile?["email"] as? String, "")
        }
    }

    func testTakenUsernameIs409CaseInsensitively() throws {
        assertError(try post("/customer", ["username": "skyzonecustomer@gmail.com", "password": "other"]), 409)
        assertError(try post("/customer", ["username": "SkyZoneCustomer@Gmail.com", "password": "other"]), 409)
    }

    func testCreatingTheRegisteredSocialAccountAgainReturnsIt() throws {
        let again = try post("/customer", ["external-token": SkyZoneTests.seededSocialToken, "external-type": "facebook"])
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(again.jsonObject?["id"] as? Int, 112_352_352_234)
        // The same token on another network is another account.
        XCTAssertEqual(try post("/customer", ["external-token": SkyZoneTests.seededSocialToken, "external-type": "twitter"]).status, 200)
    }

    func testConflictLeavesNextIdUnchanged() throws {
        _ = try post("/customer", ["username": "skyzonecustomer@gmail.com", "password": "x"])
        XCTAssertEqual(try post("/customer", ["username": "c@example.com", "password": "x"]).jsonObject?["id"] as? Int, 112_352_352_236)
    }

    func testCreateMissingFieldsIs400() throws {
        assertError(try post("/customer", ["username": "a@example.com"]), 400, mentions: "password")
        assertError(try post("/customer", ["password": "secret"]), 400, mentions: "username")
        assertError(try post("/customer", ["external-token": "abc"]), 400, mentions: "external-type")
        assertError(try post("/customer", ["external-type": "facebook"]), 400, mentions: "external-token")
        assertError(try post("/customer", ["username": "", "password": "secret"]), 400, mentions: "username")
        assertError(try post("/customer", ["username": "a@example.com", "password": 12345]), 400, mentions: "password")
        assertError(try post("/customer", [:]), 400)
        assertError(try post("/customer", ["name": "Sky"]), 400)
    }

    func testCreateBadSocialTypeIs400() throws {
        for type in ["google", "Facebook", ""] {
            assertError(try post("/customer", ["external-token": "abc", "external-type": type]), 400, mentions: "external-type")
        }
    }

    func testCreateMixedFormsIs400() throws {
        assertError(try post("/customer", ["username": "a@example.com", "password": "x", "external-token": "t", "external-type": "facebook"]),
                    400)
    }

    func testCreateBadJSONIs400() throws {
        assertError(try server.request("POST", "/customer", jsonText: "{\"username\": \"a@b.c\""), 400, mentions: "JSON")
        assertError(try server.request("POST", "/customer", jsonText: "\"a@b.c\""), 400)
        assertError(try server.request("POST", "/customer"), 400)
    }

    func testCreateAcceptsAlamofireDefaultFormEncoding() throws {
        let response = try server.request("POST", "/customer", form: [("username", "form@example.com"), ("password", "pw")])
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.jsonObject?["email"] as? String, "form@example.com")
    }

    // MARK: - POST /tokens

    func testSignInWithSeededAccount() throws {
        let response = try post("/tokens", ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let body = try XCTUnwrap(response.jsonObject)
        XCTAssertEqual(Set(body.keys), ["auth", "profile"])
        let auth = try XCTUnwrap(body["auth"] as? [String: Any])
        XCTAssertEqual(auth["verified"] as? Bool, true)
        XCTAssertNotNil(UUID(uuidString: auth["token"] as? String ?? ""), "\(auth)")
        let profile = body["profile"] as? [String: Any]
        assertProfileShape(profile, social: false)
        XCTAssertEqual(profile?["id"] as? Int, 112_352_352_235)
        XCTAssertEqual(profile?["email"] as? String, "skyzonecustomer@gmail.com")
        XCTAssertEqual(profile?["firstName"] as? String, "Sky")
        XCTAssertEqual((profile?["address"] as? [String: String])?["city"], "Toronto")
        XCTAssertFalse(response.text.contains("password1"))
    }

    func testSignInUsernameIsCaseInsensitive() throws {
        let response = try post("/tokens", ["username": "SKYZONECUSTOMER@gmail.com", "password": "password1"])
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual((response.jsonObject?["profile"] as? [String: Any])?["email"] as? String, "skyzonecustomer@gmail.com")
    }

    func testSignInWithSeededSocialAccount() throws {
        let response = try post("/tokens", ["external-token": SkyZoneTests.seededSocialToken, "external-type": "facebook"])
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertEqual((response.jsonObject?["auth"] as? [String: Any])?["verified"] as? Bool, true)
        let profile = response.jsonObject?["profile"] as? [String: Any]
        assertProfileShape(profile, social: true)
        XCTAssertEqual(profile?["id"] as? Int, 112_352_352_234)
        XCTAssertEqual(profile?["external-type"] as? String, "facebook")
    }

    func testCreateThenSignIn() throws {
        let created = try post("/customer", ["username": "flow@example.com", "password": "pw-1"]).jsonObject
        let signedIn = try post("/tokens", ["username": "flow@example.com", "password": "pw-1"])
        XCTAssertEqual(signedIn.status, 200)
        XCTAssertEqual((signedIn.jsonObject?["profile"] as? [String: Any])?["id"] as? Int, created?["id"] as? Int)
    }

    func testWrongPasswordIs401NotVerified() throws {
        let response = try post("/tokens", ["username": "skyzonecustomer@gmail.com", "password": "password2"])
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        let body = try XCTUnwrap(response.jsonObject)
        XCTAssertEqual(Set(body.keys), ["auth"])
        XCTAssertEqual((body["auth"] as? [String: Any])?["verified"] as? Bool, false)
        XCTAssertEqual((body["auth"] as? [String: Any])?["token"] as? String, "")
    }

    func testUnknownAccountsAre401() throws {
        for body: [String: Any] in [["username": "nobody@example.com", "password": "password1"],
                                    ["external-token": "never-registered", "external-type": "instagram"],
                                    ["external-token": SkyZoneTests.seededSocialToken, "external-type": "twitter"]] {
            let response = try post("/tokens", body)
            XCTAssertEqual(response.status, 401, "\(body)")
            XCTAssertEqual((response.jsonObject?["auth"] as? [String: Any])?["verified"] as? Bool, false)
        }
    }

    func testSocialAccountCannotSignInWithAPassword() throws {
        // The seeded social account has no username or password at all.
        XCTAssertEqual(try post("/tokens", ["username": "", "password": "x"]).status, 400)
        XCTAssertEqual(try post("/tokens", ["username": "asdf", "password": "x"]).status, 401)
    }

    func testSignInMalformedIs400() throws {
        assertError(try server.request("POST", "/tokens", jsonText: "not json"), 400, mentions: "JSON")
        assertError(try post("/tokens", ["username": "skyzonecustomer@gmail.com"]), 400, mentions: "password")
        assertError(try post("/tokens", ["external-token": "x", "external-type": "myspace"]), 400, mentions: "external-type")
        assertError(try post("/tokens", ["username": "a", "password": "b", "external-type": "facebook"]), 400)
        assertError(try post("/tokens", [:]), 400)
    }

    // MARK: - GET /customer

    func testProfileWithBearerToken() throws {
        let signIn = try post("/tokens", ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        let token = try XCTUnwrap((signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        let response = try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(token)")])
        XCTAssertEqual(response.status, 200, response.text)
        assertProfileShape(response.jsonObject, social: false)
        XCTAssertEqual(response.jsonObject?["id"] as? Int, 112_352_352_235)
        XCTAssertEqual(response.jsonObject?["lastName"] as? String, "Jumper")
        // The scheme name is case-insensitive (RFC 9110 §11.1).
        XCTAssertEqual(try server.request("GET", "/customer", headers: [("authorization", "bearer \(token)")]).status, 200)
    }

    func testProfileOfANewSocialAccount() throws {
        _ = try post("/customer", ["external-token": "ig-123", "external-type": "instagram"])
        let signIn = try post("/tokens", ["external-token": "ig-123", "external-type": "instagram"])
        let token = try XCTUnwrap((signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        let response = try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(token)")])
        XCTAssertEqual(response.status, 200)
        assertProfileShape(response.jsonObject, social: true)
        XCTAssertEqual(response.jsonObject?["external-token"] as? String, "ig-123")
    }

    func testProfileWithoutValidTokenIs401() throws {
        let token = try XCTUnwrap((try post("/tokens", ["username": "skyzonecustomer@gmail.com", "password": "password1"])
            .jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        for headers in [[], [("Authorization", "Bearer ")], [("Authorization", "Bearer nope")], [("Authorization", token)],
                        [("Authorization", "Basic \(token)")]] {
            let response = try server.request("GET", "/customer", headers: headers)
            assertError(response, 401)
            XCTAssertEqual(response.header("WWW-Authenticate"), "Bearer")
        }
    }

    // MARK: - Reset

    func testResetRestoresSeed() throws {
        _ = try post("/customer", ["username": "temp@example.com", "password": "pw"])
        let token = try XCTUnwrap((try post("/tokens", ["username": "temp@example.com", "password": "pw"])
            .jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        server.app.reset()
        XCTAssertEqual(try post("/tokens", ["username": "temp@example.com", "password": "pw"]).status, 401)
        XCTAssertEqual(try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(token)")]).status, 401)
        XCTAssertEqual(try post("/customer", ["username": "temp@example.com", "password": "pw"]).jsonObject?["id"] as? Int,
                       112_352_352_236)
        XCTAssertEqual(try post("/tokens", ["username": "skyzonecustomer@gmail.com", "password": "password1"]).status, 200)
    }
}
