import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// The app's whole journey, as the task document describes it, in one test.
final class MusbookingTests: XCTestCase {
    func testWholeFlowFromSMSToRestoredPassword() throws {
        let server = try TestServer()

        // 1. The code, "sent" to the phone as the user typed it.
        let sms = try server.request("POST", "/api/users/sms", form: [("phone", "+7 (912) 345-67-89")])
        assertText(sms, 200, "Код успешно сформирован и послан получателю")
        let outboxed = server.outbox.sms(phone: "9123456789")
        XCTAssertEqual(outboxed.count, 1)
        let code = try XCTUnwrap(outboxed.first?.code)
        XCTAssertEqual(outboxed.first?.text, "Код подтверждения: \(code)")
        XCTAssertTrue((1001...9998).contains(Int(code) ?? 0), code)
        // The same code over the admin API, the phone written yet another way.
        let admin = try server.request("GET", "/__mock/sms?phone=89123456789")
        XCTAssertEqual(admin.status, 200)
        XCTAssertEqual((admin.jsonArray?.last as? [String: Any])?["code"] as? String, code)

        // 2. Register.
        let register = try server.request("POST", "/api/users/register", form: [
            ("name", "Пётр"), ("lastname", "Иванов"), ("surname", "Ильич"), ("phone", "+7 (912) 345-67-89"),
            ("code", code), ("password", "parol1"), ("email", "petr@example.ru"), ("birthday", "22.01.1990 15:23:56"),
        ])
        XCTAssertEqual(register.status, 200, register.text)
        XCTAssertEqual(register.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(register.jsonObject?["login"] as? String, "9123456789")
        XCTAssertEqual(register.jsonObject?["password"] as? String, "parol1")

        // 3. Log in with the login registration returned (the normalised phone).
        let login = try server.request("POST", "/api/auth/login", form: [("login", "9123456789"), ("password", "parol1")])
        XCTAssertEqual(login.status, 200, login.text)
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String)
        let id = try XCTUnwrap(login.jsonObject?["key"] as? String)

        // 4. The profile: not confirmed yet.
        var user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["id"] as? String, id)
        XCTAssertEqual(user["login"] as? String, "9123456789")
        XCTAssertEqual(user["name"] as? String, "9123456789")
        XCTAssertEqual(user["firstName"] as? String, "Пётр")
        XCTAssertEqual(user["lastName"] as? String, "Иванов")
        XCTAssertEqual(user["surName"] as? String, "Ильич")
        XCTAssertEqual(user["phone"] as? String, "9123456789")
        XCTAssertEqual(user["email"] as? String, "petr@example.ru")
        XCTAssertEqual(user["birthday"] as? String, "22.01.1990 15:23:56")
        XCTAssertEqual(user["isConfirmed"] as? Bool, false)

        // 5. Confirmation e-mail, and its link opened as a browser would.
        let send = try server.request("POST", "/api/users/send-confirm", headers: bearer(token))
        XCTAssertEqual(send.status, 200, send.text)
        XCTAssertEqual(send.text, "\"ok\"")
        XCTAssertEqual(send.header("Content-Type"), "application/json; charset=utf-8")
        let mail = try XCTUnwrap(server.outbox.emails(to: "petr@example.ru").last)
        let link = try XCTUnwrap(mail.link)
        // The link names the host and port the app reached (the Host header).
        XCTAssertEqual(link, "http://127.0.0.1:\(server.port)/api/users/confirm?id=\(id)")
        XCTAssertTrue(mail.body.contains(link))
        let url = try XCTUnwrap(URL(string: link))
        let confirm = try server.request("GET", "\(url.path)?\(url.query ?? "")")
        assertText(confirm, 200, "Почта пользователя подтверждена")
        user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["isConfirmed"] as? Bool, true)

        // 6. A new address must be confirmed again.
        let change = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("email", "petr.new@example.ru")])
        XCTAssertEqual(change.status, 200, change.text)
        XCTAssertEqual(change.body, [])
        user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["email"] as? String, "petr.new@example.ru")
        XCTAssertEqual(user["isConfirmed"] as? Bool, false)

        // 7. Restore by SMS: the old password is refused, the new one from the SMS works.
        let restore = try server.request("POST", "/api/users/restore", form: [("phone", "+7 912 345-67-89"), ("sms", "true")])
        assertText(restore, 200, "Новый пароль отправлен по SMS на номер 9123456789")
        let newPassword = try XCTUnwrap(server.outbox.sms(phone: "9123456789").last?.code)
        XCTAssertNotEqual(newPassword, "parol1")
        let old = try server.request("POST", "/api/auth/login", form: [("login", "9123456789"), ("password", "parol1")])
        assertText(old, 400, "Пароль неверен")
        let fresh = try server.musbookingLogin("9123456789", newPassword)
        XCTAssertEqual(try server.musbookingUser(fresh).status, 200)
        // The fresh login ended the session of step 3.
        assertText(try server.musbookingUser(token), 401, "Access denied")
    }
}
