import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit
import MusbookingSystem

/// API.md revision 2, §4 and §0 for musbooking: ASP.NET routing and binding, exact logins, hints.
final class MusbookingFidelityTests: XCTestCase {
    typealias Seed = MusbookingSeedData

    private func assertHinted(_ r: TestResponse, _ status: Int, _ text: String, hintMentions word: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        assertText(r, status, text, file: file, line: line)
        let hint = r.header("X-Mock-Hint") ?? ""
        XCTAssertTrue(hint.contains(word), "hint: \(hint)", file: file, line: line)
        XCTAssertTrue(hint.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "hint must be ASCII: \(hint)", file: file, line: line)
    }

    func testPathsMatchInAnyLetterCase() throws {
        let server = try TestServer()
        let r = try server.request("POST", "/API/Users/SMS", form: [("phone", "9123456789")])
        assertText(r, 200, "Код успешно сформирован и послан получателю")
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        XCTAssertEqual(try server.request("GET", "/Api/Users/User", headers: bearer(token)).status, 200)
        XCTAssertEqual(try server.request("GET", "/api/Categories/1/", headers: bearer(token)).status, 200)
    }

    func testAJSONBodyIsNotReadAndTheErrorCarriesAHint() throws {
        let server = try TestServer()
        let r = try server.request("POST", "/api/users/sms", json: ["phone": "9123456789"])
        assertHinted(r, 400, "Не задан номер телефона", hintMentions: "form")
        XCTAssertTrue(server.outbox.sms().isEmpty)
        let login = try server.request("POST", "/api/auth/login", json: ["login": Seed.login, "password": Seed.password])
        assertHinted(login, 400, "Не задан логин", hintMentions: "application/x-www-form-urlencoded")
        // The same JSON text under a form Content-Type is not a form either.
        let underForm = try server.request("POST", "/api/users/sms", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                           body: Array(#"{"phone":"9123456789"}"#.utf8))
        assertHinted(underForm, 400, "Не задан номер телефона", hintMentions: "form")
    }

    func testMultipartAndQueryAreBound() throws {
        let server = try TestServer()
        let body = multipart([("Login", Seed.login), ("PASSWORD", Seed.password)])
        let r = try server.request("POST", "/api/auth/login", headers: [("Content-Type", body.contentType)], body: body.body)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(try server.request("GET", "/api/auth/login?LOGIN=test005&password=123456").status, 200)
    }

    func testAPhoneUsedAsALoginIsNotFoundWithAHintNamingTheLogin() throws {
        let server = try TestServer()
        for phone in ["+7 (916) 123-45-67", "89161234567", "9161234567"] {
            let r = try server.request("POST", "/api/auth/login", form: [("login", phone), ("password", Seed.password)])
            assertHinted(r, 400, "Пользователь не найден: \(phone)", hintMentions: "\"Test005\"")
        }
        // An account whose login is its phone: the phone written another way is not found either.
        _ = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        let other = try server.request("POST", "/api/auth/login", form: [("login", "+7 912 345-67-89"), ("password", "pass123")])
        assertHinted(other, 400, "Пользователь не найден: +7 912 345-67-89", hintMentions: "\"9123456789\"")
        _ = try server.musbookingLogin("9123456789", "pass123")
        // A login that is no phone at all gets no hint.
        let unknown = try server.request("POST", "/api/auth/login", form: [("login", "nobody1"), ("password", "x")])
        assertText(unknown, 400, "Пользователь не найден: nobody1")
        XCTAssertNil(unknown.header("X-Mock-Hint"))
    }

    func testAnExpiredTokenIs400WithAHint() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        server.clock.advance(by: 86_401)
        assertHinted(try server.musbookingUser(token), 400, "Срок действия токена истёк", hintMentions: "log in again")
    }

    func testAWholeFormWithBlankFieldsLosesNothing() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let before = try server.musbookingUser(token).text
        let r = try server.request("POST", "/api/users/change", headers: bearer(token), form: [
            ("name", ""), ("lastname", " "), ("surname", ""), ("email", ""), ("birthday", ""), ("fcm", "  "), ("phone", ""),
        ])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(try server.musbookingUser(token).text, before)
    }

    func testBirthdaysWithOffsetsAndShortDates() throws {
        let server = try TestServer()
        let cases = [("2014-05-17T12:03:42+03:00", "17.05.2014 12:03:42"), ("2014-05-17T12:03:42+0300", "17.05.2014 12:03:42"),
                     ("2014-05-17T12:03:42Z", "17.05.2014 12:03:42"), ("2014-05-17T12:03:42.123-05:00", "17.05.2014 12:03:42"),
                     ("5.3.1995", "05.03.1995 00:00:00"), ("5.3.1995 7:08:09", "05.03.1995 07:08:09"), ("5.3.1995 7:8:9", nil)]
        for (i, (input, output)) in cases.enumerated() {
            let phone = "915000000\(i)"
            let r = try server.musbookingRegister(phone: phone, extra: [("password", "pass123"), ("birthday", input)])
            guard let output else {
                XCTAssertEqual(r.status, 400, input)
                continue
            }
            XCTAssertEqual(r.status, 200, "\(input): \(r.text)")
            let token = try server.musbookingLogin(phone, "pass123")
            XCTAssertEqual(try server.musbookingUser(token).jsonObject?["birthday"] as? String, output, input)
        }
        let broken = try server.musbookingRegister(phone: "9150000099", extra: [("birthday", "2014-05-17T12:03:42+3:00")])
        XCTAssertEqual(broken.status, 400)
    }

    func testPhonesAreCutToTenDigitsAsFormatPhoneDoes() {
        XCTAssertEqual(PhoneNumber.normalize("+7 (912) 345-67-89"), "9123456789")
        XCTAssertEqual(PhoneNumber.normalize("89123456789"), "9123456789")
        XCTAssertEqual(PhoneNumber.normalize("79123456789"), "9123456789")
        XCTAssertEqual(PhoneNumber.normalize("912345678901"), "9123456789")
        XCTAssertEqual(PhoneNumber.normalize("+7 912 345 67 89 0"), "9123456789")
        XCTAssertEqual(PhoneNumber.normalize("+44 20 7946 0958"), "+442079460")
    }

    func testALongPhoneIsCutAndRegisters() throws {
        let server = try TestServer()
        let code = try server.musbookingCode(phone: "+7 (912) 345-67-890")
        XCTAssertEqual(server.outbox.sms().last?.phone, "9123456789")
        let r = try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9123456789"), ("code", code)])
        XCTAssertEqual(r.jsonObject?["login"] as? String, "9123456789", r.text)
    }

    func testHEADChangesNothing() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("email", "new@mail.com")])
        let head = try server.request("HEAD", "/api/users/confirm?id=\(Seed.id)")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(try server.musbookingUser(token).jsonObject?["isConfirmed"] as? Bool, false, "HEAD confirmed nothing")
        // A HEAD of auth/login neither starts nor ends a session.
        XCTAssertEqual(try server.request("HEAD", "/api/auth/login?login=Test005&password=123456").status, 200)
        XCTAssertEqual(try server.musbookingUser(token).status, 200)
        XCTAssertEqual(try server.request("GET", "/api/users/confirm?id=\(Seed.id)").status, 200)
        XCTAssertEqual(try server.musbookingUser(token).jsonObject?["isConfirmed"] as? Bool, true)
    }

    func testTokenControls() throws {
        let server = try TestServer()
        let musbooking = try XCTUnwrap(server.app.system(named: "musbooking"))
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        XCTAssertEqual(musbooking.expireTokens(token), 1)
        assertHinted(try server.musbookingUser(token), 400, "Срок действия токена истёк", hintMentions: "expired")
        XCTAssertEqual(musbooking.revokeTokens(token), 1)
        assertText(try server.musbookingUser(token), 401, "Access denied")
        XCTAssertEqual(musbooking.revokeTokens(token), 0)
        let fresh = try server.musbookingLogin(Seed.login, Seed.password)
        XCTAssertEqual(musbooking.expireTokens(nil), 1)
        XCTAssertEqual(try server.musbookingUser(fresh).status, 400)
        XCTAssertEqual(musbooking.revokeTokens(nil), 1)
        XCTAssertEqual(try server.musbookingUser(fresh).status, 401)
    }

    func testAFixedSMSCodeFromTheEnvironment() throws {
        let server = try TestServer(environment: { $0.fixedSMSCode = "1234" })
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456780")])
        XCTAssertEqual(server.outbox.sms().map(\.code), ["1234", "1234"])
        let r = try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9123456789"), ("code", "1234")])
        XCTAssertEqual(r.status, 200, r.text)
    }

    func testAFixedSMSCodeFromTheSeedAndTheFlagWins() throws {
        var text = try String(contentsOfFile: TestServer.repositorySeedPath, encoding: .utf8)
        text = text.replacingOccurrences(of: #""smsCode": null"#, with: #""smsCode": "7777""#)
        let seed = try Routes.Seed.decode(Data(text.utf8), source: "test")
        XCTAssertEqual(seed.settings?.values["smsCode"], .text("7777"))
        let fromSeed = MockApp(seed: seed, environment: MockEnvironment(clock: ManualClock(), random: SeededRandomSource(seed: 1), logger: .silent))
        XCTAssertEqual(fromSeed.environment.fixedSMSCode, "7777")
        var flagged = MockEnvironment(clock: ManualClock(), random: SeededRandomSource(seed: 1), logger: .silent)
        flagged.fixedSMSCode = "4242"
        XCTAssertEqual(MockApp(seed: seed, environment: flagged).environment.fixedSMSCode, "4242")
        let plain = try Routes.Seed.load(path: TestServer.repositorySeedPath)
        XCTAssertNil(MockApp(seed: plain, environment: MockEnvironment(logger: .silent)).environment.fixedSMSCode, "random by default")
    }
}
