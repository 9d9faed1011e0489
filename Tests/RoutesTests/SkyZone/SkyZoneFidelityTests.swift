import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// API.md revision 2, §3: every key in every profile, the document's create example, any Content-Type.
final class SkyZoneFidelityTests: MockServerTestCase {
    private let documentExample = #"{"username": "skyzonecustomer@gmail.com", "password": "password1"}"#

    func testTheDocumentsCreateExampleWorksOnAFreshSeed() throws {
        let create = try server.request("POST", "/customer", jsonText: documentExample)
        XCTAssertEqual(create.status, 200, create.text)
        XCTAssertEqual(create.jsonObject?["id"] as? Int, 112_352_352_235)
        XCTAssertEqual(create.jsonObject?["lastName"] as? String, "Jumper", "the existing profile")
        XCTAssertEqual(create.jsonObject?["external-token"] as? String, "")
        XCTAssertEqual(create.jsonObject?["external-type"] as? String, "")
        let signIn = try server.request("POST", "/tokens", jsonText: documentExample)
        XCTAssertEqual(signIn.status, 200, signIn.text)
        // Nothing new was created: the next account gets the seed's next id.
        let next = try server.request("POST", "/customer", json: ["username": "fresh@example.com", "password": "p1"])
        XCTAssertEqual(next.jsonObject?["id"] as? Int, 112_352_352_236)
    }

    func testTheUsernameWithAnotherPasswordIs409() throws {
        let r = try server.request("POST", "/customer", json: ["username": "skyzonecustomer@gmail.com", "password": "other"])
        XCTAssertEqual(r.status, 409)
        XCTAssertEqual(r.jsonObject as? [String: String], ["error": "Username is already taken"])
    }

    func testJSONIsReadWhateverTheContentTypeSays() throws {
        for type in ["text/plain", "application/x-www-form-urlencoded", nil] {
            let headers = type.map { [("Content-Type", $0)] } ?? []
            let r = try server.request("POST", "/tokens", headers: headers, body: Array(documentExample.utf8))
            XCTAssertEqual(r.status, 200, "\(type ?? "none"): \(r.text)")
        }
    }

    func testAFormIsReadToo() throws {
        let r = try server.request("POST", "/customer", form: [("external-token", "form-token"), ("external-type", "twitter")])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonObject?["external-type"] as? String, "twitter")
        XCTAssertEqual(r.jsonObject?["email"] as? String, "")
        let body = multipart([("username", "skyzonecustomer@gmail.com"), ("password", "password1")])
        let signIn = try server.request("POST", "/tokens", headers: [("Content-Type", body.contentType)], body: body.body)
        XCTAssertEqual(signIn.status, 200, signIn.text)
    }

    func testTokenControls() throws {
        let skyzone = try XCTUnwrap(server.app.system(named: "skyzone"))
        func signIn() throws -> String {
            let r = try server.request("POST", "/tokens", jsonText: documentExample)
            return try XCTUnwrap((r.jsonObject?["auth"] as? [String: Any])?["token"] as? String)
        }
        let a = try signIn(), b = try signIn()
        XCTAssertEqual(skyzone.expireTokens(a), 1)
        let expired = try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(a)")])
        XCTAssertEqual(expired.status, 401, "no expired answer of its own: as an unknown token")
        XCTAssertEqual(try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(b)")]).status, 200)
        XCTAssertEqual(skyzone.revokeTokens(nil), 1)
        XCTAssertEqual(try server.request("GET", "/customer", headers: [("Authorization", "Bearer \(b)")]).status, 401)
    }

    func testTheAccountCapRefusesNewAccountsOnly() throws {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } },
                                    environment: { $0.maxSkyZoneAccounts = 2 })
        let refused = try server.request("POST", "/customer", json: ["username": "new@example.com", "password": "p1"])
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.jsonObject as? [String: String], ["error": "Too many accounts"])
        XCTAssertTrue(refused.header("X-Mock-Hint")?.contains("--max-skyzone-accounts") ?? false)
        XCTAssertEqual(try server.request("POST", "/customer", jsonText: documentExample).status, 200, "existing accounts still answer")
        XCTAssertTrue(lines.withLock { $0 }.contains { $0.contains("SkyZone: account cap") })
    }
}
