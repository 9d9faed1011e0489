import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit
import MusbookingSystem

/// Restore, e-mail confirmation, categories, parameter encodings and the seed section.
final class MusbookingRecoveryTests: XCTestCase {
    typealias Seed = MusbookingSeedData

    func testRestoreBySMSReplacesThePassword() throws {
        let server = try TestServer()
        let r = try server.request("POST", "/api/users/restore", form: [("login", "test005"), ("sms", "1")])
        assertText(r, 200, "Новый пароль отправлен по SMS на номер 9161234567")
        let sms = try XCTUnwrap(server.outbox.sms(phone: Seed.phone).last)
        let password = try XCTUnwrap(sms.code)
        XCTAssertTrue(sms.text.contains(password))
        assertText(try server.request("POST", "/api/auth/login", form: [("login", "Test005"), ("password", Seed.password)]), 400, "Пароль неверен")
        _ = try server.musbookingLogin("Test005", password)
    }

    func testRestoreByEmailIsTheDefault() throws {
        let server = try TestServer()
        for sms in ["false", "0", ""] {
            let r = try server.request("POST", "/api/users/restore", form: [("mail", "TEST005@mail.com"), ("sms", sms)])
            assertText(r, 200, "Новый пароль отправлен на почту test005@mail.com")
        }
        XCTAssertEqual(server.outbox.sms().count, 0)
        let mails = server.outbox.emails(to: Seed.email)
        XCTAssertEqual(mails.count, 3)
        let body = try XCTUnwrap(mails.last?.body)
        let password = try XCTUnwrap(body.split(separator: " ").last.map(String.init))
        _ = try server.musbookingLogin("Test005", password)
        // `email` is accepted for `mail`, `phone` in any form, `sms` as a form boolean.
        XCTAssertEqual(try server.request("POST", "/api/users/restore", form: [("email", Seed.email)]).status, 200)
        let byPhone = try server.request("POST", "/api/users/restore", form: [("phone", "+7 916 123 45 67"), ("sms", "true")])
        assertText(byPhone, 200, "Новый пароль отправлен по SMS на номер 9161234567")
    }

    func testRestoreErrors() throws {
        let server = try TestServer()
        assertText(try server.request("POST", "/api/users/restore", form: []), 400, "Не задан логин, почта или номер телефона")
        assertText(try server.request("POST", "/api/users/restore", form: [("login", "nobody1"), ("mail", "x@y.ru"), ("phone", "123")]),
                   400, "Не найден пользователь по логину nobody1, email x@y.ru, или phone 123")
        assertText(try server.request("POST", "/api/users/restore", form: [("login", "nobody1")]),
                   400, "Не найден пользователь по логину nobody1, email , или phone ")
        // The seed customer has no account to restore.
        assertText(try server.request("POST", "/api/users/restore", form: [("phone", Seed.customerPhone), ("sms", "true")]),
                   400, "Не найден пользователь по логину , email , или phone 9031112233")
        // An account without an e-mail can only restore by SMS.
        _ = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        assertText(try server.request("POST", "/api/users/restore", form: [("phone", "9123456789")]),
                   400, "У пользователя не указана почта, восстановите пароль по SMS")
        _ = try server.musbookingLogin("9123456789", "pass123")
        XCTAssertEqual(server.outbox.emails().count, 0)
    }

    func testSendConfirmUsesTheHostHeaderOrTheDefaultAddress() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        // In-process, so the Host header is exactly what the test says (or absent).
        func sendConfirm(host: String?) -> Int {
            var headers: HTTPHeaders = ["Authorization": "Bearer \(token)"]
            if let host { headers.add("Host", host) }
            return server.responder.respond(to: HTTPRequest(method: .post, target: "/api/users/send-confirm", headers: headers)).status.code
        }
        XCTAssertEqual(sendConfirm(host: nil), 200)
        XCTAssertEqual(sendConfirm(host: "192.168.1.20:9090"), 200)
        XCTAssertEqual(sendConfirm(host: "evil host/<x>"), 200)
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)
        let links = server.outbox.emails(to: Seed.email).map(\.link)
        XCTAssertEqual(links, [
            "http://127.0.0.1:8080/api/users/confirm?id=\(Seed.id)",
            "http://192.168.1.20:9090/api/users/confirm?id=\(Seed.id)",
            "http://127.0.0.1:8080/api/users/confirm?id=\(Seed.id)",
            "http://127.0.0.1:\(server.port)/api/users/confirm?id=\(Seed.id)",
        ])
        XCTAssertEqual(server.outbox.emails().first?.subject, "Подтверждение почты")
    }

    func testConfirm() throws {
        let server = try TestServer()
        for target in ["/api/users/confirm", "/api/users/confirm?id=", "/api/users/confirm?id=not-a-guid",
                       "/api/users/confirm?id=00000000-0000-4000-8000-000000000000"] {
            assertText(try server.request("GET", target), 400, "Не найден пользователь")
        }
        // The seed customer's id from the seed, upper-case, by POST: confirmed.
        assertText(try server.request("POST", "/api/users/confirm", form: [("id", Seed.customerId.uppercased())]),
                   200, "Почта пользователя подтверждена")
        _ = try server.musbookingRegister(phone: Seed.customerPhone, extra: [("password", "maria1")])
        let user = try server.musbookingUser(try server.musbookingLogin(Seed.customerPhone, "maria1")).jsonObject ?? [:]
        XCTAssertEqual(user["isConfirmed"] as? Bool, true)
    }

    /// The confirmation link's answers, both ways in and both outcomes, have the media type the
    /// OpenAPI document gives them (schemathesis' content-type conformance check, ST104): plain
    /// text, as the original's link page.
    func testConfirmAnswersHaveTheDocumentedContentType() throws {
        let server = try TestServer()
        let document = try XCTUnwrap(try server.request("GET", "/__mock/openapi.json").jsonObject)
        let operations = try XCTUnwrap((document["paths"] as? [String: Any])?["/api/users/confirm"] as? [String: Any])
        func documented(_ method: String, _ status: Int) throws -> [String] {
            let responses = try XCTUnwrap((operations[method] as? [String: Any])?["responses"] as? [String: Any], method)
            let content = try XCTUnwrap((responses[String(status)] as? [String: Any])?["content"] as? [String: Any], "\(method) \(status)")
            return content.keys.sorted()
        }
        let answers = [("get", try server.request("GET", "/api/users/confirm?id=nobody")),
                       ("post", try server.request("POST", "/api/users/confirm", form: [("id", "nobody")])),
                       ("get", try server.request("GET", "/api/users/confirm?id=\(Seed.customerId)")),
                       ("post", try server.request("POST", "/api/users/confirm", form: [("id", Seed.customerId)]))]
        XCTAssertEqual(answers.map(\.1.status), [400, 400, 200, 200])
        for (method, answer) in answers {
            let type = answer.header("Content-Type")?.split(separator: ";").first.map(String.init) ?? "none"
            XCTAssertEqual([type], try documented(method, answer.status), "\(method) \(answer.status)")
        }
    }

    func testCategories() throws {
        let server = try TestServer()
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        let r = try server.request("GET", "/api/categories/1/", headers: bearer(token))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.jsonObject?["id"] as? Int, 1)
        XCTAssertEqual(r.jsonObject?["name"] as? String, "Репетиционные базы")
        XCTAssertTrue(r.text.contains("\"parentId\":null"), r.text)
        XCTAssertTrue(r.text.contains("\"isArchive\":false"), r.text)
        XCTAssertEqual(try server.request("GET", "/api/categories/3", headers: bearer(token)).jsonObject?["parentId"] as? Int, 1)
        assertText(try server.request("GET", "/api/categories/99", headers: bearer(token)), 400, "Категория не найдена: 99")
        assertText(try server.request("GET", "/api/categories/abc", headers: bearer(token)), 400, "Неверный идентификатор категории: abc")
        assertText(try server.request("GET", "/api/categories/1"), 401, "Access denied")
    }

    // MARK: - How parameters arrive

    func testCyrillicFormValuesPercentEncodedWithPlusAsSpace() throws {
        let server = try TestServer()
        let code = try server.musbookingCode(phone: "9123456789")
        // "Анна Мария" / "Иванова": UTF-8 escapes, `+` for the space, written by hand.
        let body = "name=%D0%90%D0%BD%D0%BD%D0%B0+%D0%9C%D0%B0%D1%80%D0%B8%D1%8F&lastname=%D0%98%D0%B2%D0%B0%D0%BD%D0%BE%D0%B2%D0%B0"
            + "&phone=%2B7+%28912%29+345-67-89&code=\(code)&password=pass123"
        let r = try server.request("POST", "/api/users/register", headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
                                   body: Array(body.utf8))
        XCTAssertEqual(r.status, 200, r.text)
        let user = try server.musbookingUser(try server.musbookingLogin("9123456789", "pass123")).jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Анна Мария")
        XCTAssertEqual(user["lastName"] as? String, "Иванова")
    }

    func testMultipartFormData() throws {
        let server = try TestServer()
        let code = try server.musbookingCode(phone: "9123456789")
        let form = multipart([("name", "Ольга"), ("phone", "+7 912 345-67-89"), ("code", code), ("password", "pass123"),
                              ("email", "olga@example.ru")])
        let r = try server.request("POST", "/api/users/register", headers: [("Content-Type", form.contentType)], body: form.body)
        XCTAssertEqual(r.status, 200, r.text)
        let login = multipart([("login", "9123456789"), ("password", "pass123")], boundary: "xYz")
        let l = try server.request("POST", "/api/auth/login", headers: [("Content-Type", login.contentType)], body: login.body)
        let user = try server.musbookingUser(l.jsonObject?["token"] as? String ?? "").jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Ольга")
        XCTAssertEqual(user["email"] as? String, "olga@example.ru")
    }

    func testQueryStringAndParameterNamesInAnyCase() throws {
        let server = try TestServer()
        let sms = try server.request("POST", "/api/users/sms?PHONE=%2B7%20912%20345-67-89")
        XCTAssertEqual(sms.status, 200, sms.text)
        let code = try XCTUnwrap(server.outbox.sms(phone: "9123456789").last?.code)
        let r = try server.request("POST", "/api/users/register",
                                   form: [("NAME", "Иван"), ("Phone", "9123456789"), ("CODE", code), ("PassWord", "pass123"), ("LOGIN", "ivan_92")])
        XCTAssertEqual(r.status, 200, r.text)
        let form = try server.request("POST", "/api/auth/login", form: [("Login", "ivan_92"), ("PASSWORD", "pass123")])
        XCTAssertEqual(form.status, 200, form.text)
        let query = try server.request("POST", "/api/auth/login?login=ivan_92&password=pass123")
        XCTAssertEqual(query.status, 200, query.text)
    }

    // MARK: - Safety

    func testPasswordsNeverReachTheLogExceptInTheSentSMS() throws {
        let lines = Locked<[String]>([])
        let logger = Logger(level: .debug) { line in lines.withLock { $0.append(line) } }
        let env = MockEnvironment(clock: ManualClock(), random: SeededRandomSource(seed: 1), logger: logger)
        let app = MockApp(seed: try Routes.Seed.load(path: TestServer.repositorySeedPath), environment: env)
        let responder = Responder(router: app.makeRouter())
        func post(_ path: String, _ body: String, token: String? = nil) -> HTTPResponse {
            var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
            if let token { headers.add("Authorization", "Bearer \(token)") }
            return responder.respond(to: HTTPRequest(method: .post, target: path, headers: headers, body: Array(body.utf8)))
        }
        _ = post("/api/users/sms", "phone=9550001122")
        let code = env.outbox.sms().last?.code ?? ""
        XCTAssertEqual(post("/api/users/register", "name=Ivan&phone=9550001122&code=\(code)&password=Sekret42").status.code, 200)
        XCTAssertEqual(post("/api/auth/login", "login=9550001122&password=Sekret42").status.code, 200)
        XCTAssertEqual(post("/api/auth/login", "login=9550001122&password=Wrong42x").status.code, 400)
        XCTAssertEqual(post("/api/users/restore", "login=Test005").status.code, 200)
        let logged = lines.withLock { $0.joined() }
        XCTAssertFalse(logged.contains("Sekret42"), logged)
        XCTAssertFalse(logged.contains("Wrong42x"), logged)
        XCTAssertFalse(logged.contains("123456"), logged)
        // The restore e-mail's password stays in the outbox, not in its log line.
        let mailed = env.outbox.emails().last?.body.split(separator: " ").last.map(String.init) ?? "?"
        XCTAssertFalse(logged.contains(mailed), logged)
    }

    func testConcurrentRegistrationsAndLoginsStayConsistent() throws {
        let server = try TestServer(random: SystemRandomSource())
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            do {
                let phone = "915000\(String(format: "%04d", i))"
                let r = try server.musbookingRegister(phone: phone, extra: [("password", "pass\(i)x")])
                let l = try server.request("POST", "/api/auth/login", form: [("login", phone), ("password", "pass\(i)x")])
                let token = l.jsonObject?["token"] as? String ?? ""
                let user = try server.musbookingUser(token)
                if r.status != 200 || user.jsonObject?["phone"] as? String != phone {
                    failures.withLock { $0.append("\(phone): \(r.text) \(user.text)") }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }

    func testResetPutsTheSeedBack() throws {
        let server = try TestServer()
        _ = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        let token = try server.musbookingLogin(Seed.login, Seed.password)
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("name", "Пётр")])
        server.app.reset()
        assertText(try server.musbookingUser(token), 401, "Access denied")
        assertText(try server.request("POST", "/api/auth/login", form: [("login", "9123456789"), ("password", "pass123")]),
                   400, "Пользователь не найден: 9123456789")
        let user = try server.musbookingUser(try server.musbookingLogin(Seed.login, Seed.password)).jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Иван")
    }

    func testSeedSectionIsValidated() throws {
        func decode(_ text: String) -> Error? {
            do { _ = try JSONDecoder().decode(MusbookingSeed.self, from: Data(text.utf8)); return nil } catch { return error }
        }
        XCTAssertNil(decode("{}"))
        XCTAssertNotNil(decode(#"{"smsCodeLength": 0}"#))
        XCTAssertNotNil(decode(#"{"generatedPasswordLength": 4}"#))
        XCTAssertNotNil(decode(#"{"tokenLifetimeSeconds": 0}"#))
        XCTAssertNotNil(decode(#"{"users": [{"id": "a", "phone": "1", "birthday": "31.02.2000"}]}"#))
        XCTAssertNotNil(decode(#"{"users": [{"id": "a"}, {"id": "A"}]}"#))
        XCTAssertNotNil(decode(#"{"categories": [{"id": "1"}]}"#))
    }
}
