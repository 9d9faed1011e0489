import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Login, tokens, the profile and `change`.
final class MusbookingAccountTests: XCTestCase {
    typealias Seed = MusbookingSeedData

    func testLoginAnswersKeyAndTokenForTheLoginInAnyCase() throws {
        let server = try TestServer()
        for login in ["Test005", "TEST005", "test005"] {
            let r = try server.request("POST", "/api/auth/login", form: [("login", login), ("password", Seed.password)])
            XCTAssertEqual(r.status, 200, "\(login): \(r.text)")
            XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
            XCTAssertEqual(r.jsonObject?["key"] as? String, Seed.id)
            let token = try XCTUnwrap(r.jsonObject?["token"] as? String)
            XCTAssertNotNil(UUID(uuidString: token), token)
        }
        // GET with the query string, as the document allows.
        let get = try server.request("GET", "/api/auth/login?login=Test005&password=123456")
        XCTAssertEqual(get.status, 200, get.text)
    }

    func testLoginErrors() throws {
        let server = try TestServer()
        func login(_ l: String, _ p: String) throws -> TestResponse {
            try server.request("POST", "/api/auth/login", form: [("login", l), ("password", p)])
        }
        assertText(try login("nobody1", "123456"), 400, "Пользователь не найден: nobody1")
        assertText(try login("Test005", "1234567"), 400, "Пароль неверен")
        assertText(try login("Test005", ""), 400, "Пароль неверен")
        assertText(try login("", "123456"), 400, "Не задан логин")
        // The seed customer has no login yet: it cannot sign in by its phone.
        assertText(try login("9031112233", ""), 400, "Пользователь не найден: 9031112233")
        assertText(try login("89031112233", "null"), 400, "Пользователь не найден: 89031112233")
    }

    func testTokensAreNeededAndChecked() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let protected: [(String, String)] = [
            ("GET", "/api/users/user"), ("POST", "/api/users/change"), ("POST", "/api/users/send-confirm"), ("GET", "/api/categories/1"),
        ]
        let badHeaders: [[(String, String)]] = [
            [], [("Authorization", "Bearer ")], [("Authorization", "Bearer 00000000-0000-4000-8000-000000000000")],
            [("Authorization", token)], [("Authorization", "Basic \(token)")],
        ]
        for (method, path) in protected {
            for headers in badHeaders {
                let r = try server.request(method, path, headers: headers)
                assertText(r, 401, "Access denied")
            }
            let ok = try server.request(method, path, headers: [("authorization", "bearer \(token)")])
            XCTAssertEqual(ok.status, 200, "\(method) \(path): \(ok.text)")
        }
        XCTAssertEqual(try server.request("GET", "/api/users/user").header("WWW-Authenticate"), "Bearer")
    }

    func testTokenExpiresAfterItsLifetime() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        server.clock.advance(by: 86_399)
        XCTAssertEqual(try server.musbookingUser(token).status, 200)
        server.clock.advance(by: 2)
        assertText(try server.musbookingUser(token), 400, "Срок действия токена истёк")
        assertText(try server.request("POST", "/api/users/change", headers: bearer(token), form: [("fcm", "x")]), 400,
                   "Срок действия токена истёк")
        // A new login gives a new day.
        let fresh = try server.musbookingLogin(Seed.login, Seed.password)
        XCTAssertEqual(try server.musbookingUser(fresh).status, 200)
    }

    func testASecondLoginEndsTheFirstToken() throws {
        let server = try TestServer()
        let first = try server.musbookingLogin(Seed.login, Seed.password)
        let second = try server.musbookingLogin("TEST005", Seed.password)
        XCTAssertNotEqual(first, second)
        assertText(try server.musbookingUser(first), 401, "Access denied")
        XCTAssertEqual(try server.musbookingUser(second).status, 200)
        // Other users' sessions are untouched.
        _ = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        let other = try server.musbookingLogin("9123456789", "pass123")
        XCTAssertEqual(try server.musbookingUser(second).status, 200)
        XCTAssertEqual(try server.musbookingUser(other).status, 200)
    }

    func testProfileOfTheSeedAccountHasEveryKey() throws {
        let server = try TestServer()
        let r = try server.musbookingUser(try server.musbookingLogin(Seed.login, Seed.password))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        let user = try XCTUnwrap(r.jsonObject)
        XCTAssertEqual(Set(user.keys), ["id", "login", "name", "firstName", "lastName", "surName", "phone", "email", "birthday",
                                        "room", "base", "isConfirmed", "fcm", "parts"])
        XCTAssertEqual(user["id"] as? String, Seed.id)
        XCTAssertEqual(user["login"] as? String, "Test005")
        XCTAssertEqual(user["name"] as? String, "Test005")
        XCTAssertEqual(user["firstName"] as? String, "Иван")
        XCTAssertEqual(user["lastName"] as? String, "Петров")
        XCTAssertEqual(user["surName"] as? String, "Сергеевич")
        XCTAssertEqual(user["phone"] as? String, "9161234567")
        XCTAssertEqual(user["email"] as? String, "test005@mail.com")
        XCTAssertEqual(user["birthday"] as? String, "17.05.2014 12:03:42")
        XCTAssertEqual(user["room"] as? String, "Красная комната")
        XCTAssertEqual(user["base"] as? String, "Рок-база на Соколе")
        XCTAssertEqual(user["isConfirmed"] as? Bool, true)
        XCTAssertTrue(user["fcm"] is NSNull)
        let part = try XCTUnwrap((user["parts"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(part.keys), ["domainId", "name", "forfeit", "isBanned", "discount"])
        XCTAssertEqual(part["name"] as? String, "Мусбукинг Москва")
        XCTAssertEqual(part["discount"] as? Int, 5)
        XCTAssertEqual(part["isBanned"] as? Bool, false)
        XCTAssertEqual((part["forfeit"] as? NSNumber)?.doubleValue, 0)
    }

    func testProfileOfAMinimalAccountHasNullsNotMissingKeys() throws {
        let server = try TestServer()
        _ = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        let r = try server.musbookingUser(try server.musbookingLogin("9123456789", "pass123"))
        // Check the raw text too: JSONSerialization round trips could hide a missing key.
        for key in ["lastName", "surName", "email", "birthday", "room", "base", "fcm"] {
            XCTAssertTrue(r.text.contains("\"\(key)\":null"), "\(key) in \(r.text)")
        }
        XCTAssertTrue(r.text.contains("\"parts\":[]"), r.text)
        XCTAssertTrue(r.text.contains("\"isConfirmed\":false"), r.text)
    }

    func testChangeStoresTheFieldsSentAndIgnoresThePhone() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let r = try server.request("POST", "/api/users/change", headers: bearer(token), form: [
            ("name", "Пётр"), ("LastName", "Сидоров"), ("SURNAME", "Ильич"), ("birthday", "2001-02-03T04:05:06"),
            ("fcm", "fcm-token:APA91b"), ("phone", "9999999999"),
        ])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.body, [])
        var user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Пётр")
        XCTAssertEqual(user["lastName"] as? String, "Сидоров")
        XCTAssertEqual(user["surName"] as? String, "Ильич")
        XCTAssertEqual(user["birthday"] as? String, "03.02.2001 04:05:06")
        XCTAssertEqual(user["fcm"] as? String, "fcm-token:APA91b")
        XCTAssertEqual(user["phone"] as? String, "9161234567")
        XCTAssertEqual(user["email"] as? String, "test005@mail.com")
        XCTAssertEqual(user["isConfirmed"] as? Bool, true)
        // The aliases; a blank value is ignored, as the original's SetIf(!IsNullOrWhiteSpace…).
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("firstName", "Павел"), ("surName", "")])
        user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Павел")
        XCTAssertEqual(user["surName"] as? String, "Ильич")
        // Nothing sent, nothing changed.
        XCTAssertEqual(try server.request("POST", "/api/users/change", headers: bearer(token)).status, 200)
    }

    func testChangeWithABadValueChangesNothing() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let badEmail = try server.request("POST", "/api/users/change", headers: bearer(token),
                                          form: [("name", "Пётр"), ("email", "broken@"), ("fcm", "abc")])
        XCTAssertEqual(badEmail.status, 400)
        XCTAssertEqual(badEmail.text, "Неверный адрес почты: broken@")
        let badBirthday = try server.request("POST", "/api/users/change", headers: bearer(token),
                                             form: [("name", "Пётр"), ("birthday", "32.01.2000")])
        XCTAssertEqual(badBirthday.status, 400)
        XCTAssertTrue(badBirthday.text.hasPrefix("Неверная дата рождения: 32.01.2000"), badBirthday.text)
        let user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Иван")
        XCTAssertEqual(user["email"] as? String, "test005@mail.com")
        XCTAssertEqual(user["birthday"] as? String, "17.05.2014 12:03:42")
        XCTAssertTrue(user["fcm"] is NSNull)
        XCTAssertEqual(user["isConfirmed"] as? Bool, true)
    }

    func testAnyNonBlankEmailResetsConfirmationAndABlankOneChangesNothing() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        // The original resets confirmation on every e-mail it is given, even the same address.
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("email", "Test005@Mail.com")])
        var user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["email"] as? String, "Test005@Mail.com")
        XCTAssertEqual(user["isConfirmed"] as? Bool, false)
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("email", "new@mail.com")])
        user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["email"] as? String, "new@mail.com")
        XCTAssertEqual(user["isConfirmed"] as? Bool, false)
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("email", "")])
        user = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(user["email"] as? String, "new@mail.com")
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)
    }
}
