import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// API.md revision 3, §0 and §4 over real sockets: codes never used up, e-mail uniqueness only in
/// `users/sms`, and the hints for the Authorization mistakes, expired tokens and untyped forms.
final class Revision3FidelityTests: MockServerTestCase {
    typealias Seed = MusbookingSeedData
    private let taken = "Пользователь с таким номером или почтой уже зарегистрирован в системе"
    private let loginTaken = "Пользователь с такими параметрами уже присутствует в базе данных"

    private func hint(_ r: TestResponse, mentions word: String, file: StaticString = #filePath, line: UInt = #line) {
        let hint = r.header("X-Mock-Hint") ?? ""
        XCTAssertTrue(hint.contains(word), "hint: \(hint)", file: file, line: line)
        XCTAssertTrue(hint.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "hint must be ASCII: \(hint)", file: file, line: line)
    }

    // MARK: - §4

    func testARepeatedRegistrationGetsTheTakenLoginAnswerAndTheCodeNeverExpires() throws {
        let code = try server.musbookingCode(phone: "9123456789")
        // A day and more later (the code has no expiry), the same request twice: a double tap.
        server.clock.advance(by: 3 * 86_400)
        let form = [("name", "Иван"), ("phone", "+7 912 345-67-89"), ("code", code), ("password", "pass123")]
        let first = try server.request("POST", "/api/users/register", form: form)
        XCTAssertEqual(first.status, 200, first.text)
        assertText(try server.request("POST", "/api/users/register", form: form), 400, loginTaken)
        assertText(try server.request("POST", "/api/users/register", form: form + [("login", "other_login")]), 400, loginTaken)
        // The wrong code is still told apart.
        assertText(try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9123456789"), ("code", "1")]),
                   400, "Не задан или неверен код")
    }

    func testSMSRefusesAPhoneOrAnEmailThatHasAnAccountAndOnlyThere() throws {
        assertText(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789"), ("email", "TEST005@Mail.com")]), 400, taken)
        assertText(try server.request("POST", "/api/users/sms", form: [("phone", Seed.phone), ("email", "new@example.com")]), 400, taken)
        XCTAssertTrue(server.outbox.sms().isEmpty, "a refused request sends nothing")
        let ok = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789"), ("email", "new@example.com")])
        assertText(ok, 200, "Код успешно сформирован и послан получателю")
        let code = server.outbox.sms(phone: "9123456789").last?.code ?? ""
        // register and change accept an address another account has (one mailbox for every account).
        let registered = try server.request("POST", "/api/users/register",
                                            form: [("name", "Иван"), ("phone", "9123456789"), ("code", code),
                                                   ("password", "pass123"), ("email", Seed.email)])
        XCTAssertEqual(registered.status, 200, registered.text)
        let token = try server.musbookingLogin("9123456789", "pass123")
        XCTAssertEqual(try server.musbookingUser(token).jsonObject?["email"] as? String, Seed.email)
        let seedToken = try server.musbookingLogin(Seed.login, Seed.password)
        let change = try server.request("POST", "/api/users/change", headers: bearer(seedToken), form: [("email", "NEW@example.com")])
        XCTAssertEqual(change.status, 200, change.text)
        XCTAssertEqual(try server.musbookingUser(seedToken).jsonObject?["email"] as? String, "NEW@example.com")
        // Both accounts keep working, and restore by the shared address still finds one.
        let restore = try server.request("POST", "/api/users/restore", form: [("mail", Seed.email)])
        XCTAssertEqual(restore.status, 200, restore.text)
    }

    // MARK: - §0 hints

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

    func testAMusbookingFormWithoutContentTypeIsNotReadAndSaysWhy() throws {
        let r = try server.request("POST", "/api/users/sms", body: Array("phone=9123456789".utf8))
        assertText(r, 400, "Не задан номер телефона")
        hint(r, mentions: "Content-Type: application/x-www-form-urlencoded")
        XCTAssertTrue(server.outbox.sms().isEmpty)
        // A query parameter is still bound; the body without a type is not needed then.
        XCTAssertEqual(try server.request("POST", "/api/users/sms?phone=9123456789").status, 200)
    }
}
