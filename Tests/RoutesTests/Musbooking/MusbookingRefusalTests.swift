import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// What musbooking refuses, and how it says so: a repeated registration, a phone or e-mail that has
/// an account in `users/sms`, a form sent without its Content-Type.
final class MusbookingRefusalTests: MockServerTestCase {
    typealias Seed = MusbookingSeedData
    private let taken = "Пользователь с таким номером или почтой уже зарегистрирован в системе"
    private let loginTaken = "Пользователь с такими параметрами уже присутствует в базе данных"

    private func hint(_ r: TestResponse, mentions word: String, file: StaticString = #filePath, line: UInt = #line) {
        let hint = r.header("X-Mock-Hint") ?? ""
        XCTAssertTrue(hint.contains(word), "hint: \(hint)", file: file, line: line)
        XCTAssertTrue(hint.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "hint must be ASCII: \(hint)", file: file, line: line)
    }

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
    func testAMusbookingFormWithoutContentTypeIsNotReadAndSaysWhy() throws {
        let r = try server.request("POST", "/api/users/sms", body: Array("phone=9123456789".utf8))
        assertText(r, 400, "Не задан номер телефона")
        hint(r, mentions: "Content-Type: application/x-www-form-urlencoded")
        XCTAssertTrue(server.outbox.sms().isEmpty)
        // A query parameter is still bound; the body without a type is not needed then.
        XCTAssertEqual(try server.request("POST", "/api/users/sms?phone=9123456789").status, 200)
    }
}
