import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

final class RSSchoolTests: MockServerTestCase {

    private func authorize(_ login: String, _ password: String) throws -> TestResponse {
        try server.request("POST", "/rsschool/authorize", json: ["login": login, "password": password])
    }

    private func secure(_ sequence: String) throws -> TestResponse {
        try server.request("POST", "/rsschool/secure", json: ["sequence": sequence])
    }

    private func assertBadRequest(_ response: TestResponse, mentions word: String? = nil,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, 400, response.text, file: file, line: line)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        let message = response.jsonObject?["error"] as? String ?? ""
        XCTAssertFalse(message.isEmpty, response.text, file: file, line: line)
        if let word { XCTAssertTrue(message.contains(word), message, file: file, line: line) }
    }

    // MARK: - Authorize

    func testCorrectCredentialsSucceed() throws {
        let response = try authorize("username", "password")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(response.jsonObject as? [String: String], ["state": "success"])
    }

    func testWrongPasswordNamesOnlyThePassword() throws {
        let response = try authorize("username", "Password")
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.jsonObject?["wrong"] as? [String], ["password"])
        XCTAssertEqual(response.jsonObject?.count, 1)
    }

    func testWrongLoginNamesOnlyTheLogin() throws {
        let response = try authorize("user", "password")
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.jsonObject?["wrong"] as? [String], ["login"])
    }

    func testBothWrongNamesBothLoginFirst() throws {
        let response = try authorize("", "")
        XCTAssertEqual(response.status, 401)
        XCTAssertEqual(response.jsonObject?["wrong"] as? [String], ["login", "password"])
    }

    func testComparisonIsExact() throws {
        XCTAssertEqual(try authorize("Username", "password").jsonObject?["wrong"] as? [String], ["login"])
        XCTAssertEqual(try authorize("username ", "password").jsonObject?["wrong"] as? [String], ["login"])
    }

    func testAuthorizeNeverEchoesThePassword() throws {
        XCTAssertFalse(try authorize("username", "hunter2-secret").text.contains("hunter2-secret"))
    }

    func testAuthorizeMalformedInputIs400() throws {
        assertBadRequest(try server.request("POST", "/rsschool/authorize", jsonText: "{\"login\": "), mentions: "JSON")
        assertBadRequest(try server.request("POST", "/rsschool/authorize"))
        assertBadRequest(try server.request("POST", "/rsschool/authorize", jsonText: "[\"username\", \"password\"]"))
        assertBadRequest(try server.request("POST", "/rsschool/authorize", json: ["login": "username"]), mentions: "password")
        assertBadRequest(try server.request("POST", "/rsschool/authorize", json: ["password": "password"]), mentions: "login")
        assertBadRequest(try server.request("POST", "/rsschool/authorize", json: ["login": 1, "password": "password"]), mentions: "login")
        assertBadRequest(try server.request("POST", "/rsschool/authorize", jsonText: "{\"login\": \"username\", \"password\": null}"),
                         mentions: "password")
    }

    // MARK: - Secure

    func testCorrectSequenceShowsTheAlert() throws {
        let response = try secure("132")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(response.jsonObject as? [String: String],
                       ["state": "success", "title": "Welcome", "message": "You are successfuly authorized!"])
    }

    func testWrongThreeDigitSequencesAre401() throws {
        for sequence in ["123", "213", "231", "312", "321", "111", "333"] {
            let response = try secure(sequence)
            XCTAssertEqual(response.status, 401, sequence)
            XCTAssertEqual(response.jsonObject as? [String: String], ["state": "error"], sequence)
        }
    }

    func testSequencesTheAppCannotProduceAre400() throws {
        for sequence in ["", "13", "1322", "130", "134", "abc", "1 3", " 132", "１３２"] {
            assertBadRequest(try secure(sequence), mentions: "sequence")
        }
    }

    func testSecureMalformedInputIs400() throws {
        assertBadRequest(try server.request("POST", "/rsschool/secure", jsonText: "sequence=132"), mentions: "JSON")
        assertBadRequest(try server.request("POST", "/rsschool/secure"))
        assertBadRequest(try server.request("POST", "/rsschool/secure", json: [:] as [String: Any]), mentions: "sequence")
        assertBadRequest(try server.request("POST", "/rsschool/secure", json: ["sequence": 132]), mentions: "sequence")
        assertBadRequest(try server.request("POST", "/rsschool/secure", json: ["sequence": [1, 3, 2]]), mentions: "sequence")
    }

    func testGetIs405() throws {
        XCTAssertEqual(try server.request("GET", "/rsschool/secure").status, 405)
    }
}
