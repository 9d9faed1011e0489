import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// Registration: `api/users/sms` and `api/users/register`, every documented answer.
final class MusbookingRegisterTests: XCTestCase {
    func testSMSCodeIsInRangeBoundToThePhoneAndReplacedByANewerOne() throws {
        let server = try TestServer()
        let first = try server.musbookingCode(phone: "89123456789")
        let second = try server.musbookingCode(phone: "9123456789")
        for code in [first, second] { XCTAssertTrue((1001...9998).contains(Int(code) ?? 0), code) }
        XCTAssertEqual(server.outbox.sms(phone: "+7 912 345 67 89").map(\.code), [first, second])
        if first != second {
            let stale = try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9123456789"), ("code", first)])
            assertText(stale, 400, "Не задан или неверен код")
        }
        // A code is bound to its phone only.
        let other = try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9120000000"), ("code", second)])
        assertText(other, 400, "Не задан или неверен код")
        let ok = try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", "9123456789"), ("code", second)])
        XCTAssertEqual(ok.status, 200, ok.text)
    }

    func testSMSCodesCoverTheirRange() throws {
        // Many draws from a seeded source: never outside 1001…9998.
        let server = try TestServer(random: SeededRandomSource(seed: 7))
        for i in 0..<200 {
            _ = try server.request("POST", "/api/users/sms", form: [("phone", "912000\(String(format: "%04d", i))")])
        }
        let codes = server.outbox.sms().compactMap { Int($0.code ?? "") }
        XCTAssertEqual(codes.count, 200)
        XCTAssertTrue(codes.allSatisfy { (1001...9998).contains($0) })
    }

    func testSMSErrors() throws {
        let server = try TestServer()
        assertText(try server.request("POST", "/api/users/sms", form: [("phone", "")]), 400, "Не задан номер телефона")
        assertText(try server.request("POST", "/api/users/sms", form: []), 400, "Не задан номер телефона")
        assertText(try server.request("POST", "/api/users/sms", form: [("phone", "+7 (916) 123-45-67")]), 400,
                   "Пользователь с таким номером или почтой уже зарегистрирован в системе")
        let bad = try server.request("POST", "/api/users/sms", form: [("phone", "12345")])
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.text.hasPrefix("Неверный номер телефона: 12345"), bad.text)
        XCTAssertEqual(server.outbox.sms().count, 0)
        XCTAssertEqual(try server.request("GET", "/api/users/sms").status, 405)
    }

    func testRegisterErrorsComeInTheDocumentedOrderAndChangeNothing() throws {
        let server = try TestServer()
        let code = try server.musbookingCode(phone: "9123456789")
        func register(_ form: [(String, String)]) throws -> TestResponse {
            try server.request("POST", "/api/users/register", form: form)
        }
        assertText(try register([("phone", "9123456789"), ("code", code), ("password", "x")]), 400, "Не задано имя")
        assertText(try register([("name", "Иван"), ("code", code), ("password", "x")]), 400, "Не задан номер телефона")
        assertText(try register([("name", "Иван"), ("phone", "9123456789"), ("password", "x")]), 400, "Не задан или неверен код")
        assertText(try register([("name", "Иван"), ("phone", "9123456789"), ("code", "0000"), ("login", "Test005")]), 400,
                   "Не задан или неверен код")
        let base = [("name", "Иван"), ("phone", "9123456789"), ("code", code)]
        for weak in ["abcdef", "abc12", "12345"] {
            assertText(try register(base + [("password", weak), ("login", "Test005")]), 400,
                       "Пароль должен содержать не менее 6 знаков и 1 цифры")
        }
        assertText(try register(base + [("login", "Test005")]), 400, "Пользователь с такими параметрами уже присутствует в базе данных")
        assertText(try register(base + [("login", "TEST005")]), 400, "Пользователь с такими параметрами уже присутствует в базе данных")
        assertText(try register(base + [("login", "abc")]), 400, "Логин должен содержать не менее 6 знаков")
        let email = try register(base + [("email", "not-an-address")])
        XCTAssertEqual(email.status, 400)
        XCTAssertTrue(email.text.hasPrefix("Неверный адрес почты"), email.text)
        for birthday in ["31.02.2000", "2000-13-01", "вчера", "22.01.2015 25:00:00"] {
            let r = try register(base + [("birthday", birthday)])
            XCTAssertEqual(r.status, 400, birthday)
            XCTAssertTrue(r.text.hasPrefix("Неверная дата рождения: \(birthday)"), r.text)
        }
        // None of that consumed the code or created anything.
        XCTAssertEqual(server.outbox.sms().count, 1)
        let ok = try register(base + [("login", "ivan_92"), ("password", "secret7")])
        XCTAssertEqual(ok.status, 200, ok.text)
        XCTAssertEqual(ok.jsonObject?["login"] as? String, "ivan_92")
        XCTAssertEqual(ok.jsonObject?["password"] as? String, "secret7")
        // The code is not used up (the original never removes it): a repeat gets the taken-login answer.
        assertText(try register(base + [("login", "ivan_93")]), 400, "Пользователь с такими параметрами уже присутствует в базе данных")
        assertText(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]), 400,
                   "Пользователь с таким номером или почтой уже зарегистрирован в системе")
        let token = try server.musbookingLogin("IVAN_92", "secret7")
        XCTAssertEqual(try server.musbookingUser(token).jsonObject?["isConfirmed"] as? Bool, false)
    }

    func testRegisterWithoutPasswordGeneratesOneAndSendsItBySMS() throws {
        let server = try TestServer()
        let r = try server.musbookingRegister(phone: "+7 912 345-67-89")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonObject?["login"] as? String, "9123456789")
        let password = try XCTUnwrap(r.jsonObject?["password"] as? String)
        XCTAssertEqual(password.count, 6)
        XCTAssertTrue(password.contains(where: \.isNumber), password)
        XCTAssertTrue(password.contains(where: \.isLetter), password)
        XCTAssertTrue(password.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, password)
        let sms = try XCTUnwrap(server.outbox.sms(phone: "9123456789").last)
        XCTAssertEqual(sms.code, password)
        XCTAssertTrue(sms.text.contains(password))
        _ = try server.musbookingLogin("9123456789", password)
    }

    func testGeneratedPasswordsAlwaysPassThePasswordRule() throws {
        let server = try TestServer(random: SeededRandomSource(seed: 99))
        for i in 0..<100 {
            let r = try server.musbookingRegister(phone: "913000\(String(format: "%04d", i))")
            let password = r.jsonObject?["password"] as? String ?? ""
            XCTAssertTrue(password.count == 6 && password.contains(where: \.isNumber) && password.contains(where: \.isLetter), password)
        }
    }

    func testBirthdayFormatsAreAcceptedAndOutputTheOriginalWay() throws {
        let cases = [
            ("22.01.2015 15:23:56", "22.01.2015 15:23:56"),
            ("22.01.2015", "22.01.2015 00:00:00"),
            ("2014-05-17T12:03:42", "17.05.2014 12:03:42"),
            ("2014-05-17T12:03:42Z", "17.05.2014 12:03:42"),
            ("2014-05-17T12:03:42.123Z", "17.05.2014 12:03:42"),
            ("29.02.2000 00:00:00", "29.02.2000 00:00:00"),
        ]
        let server = try TestServer()
        for (i, (input, output)) in cases.enumerated() {
            let phone = "914000000\(i)"
            let r = try server.musbookingRegister(phone: phone, extra: [("password", "pass123"), ("birthday", input)])
            XCTAssertEqual(r.status, 200, "\(input): \(r.text)")
            let token = try server.musbookingLogin(phone, "pass123")
            XCTAssertEqual(try server.musbookingUser(token).jsonObject?["birthday"] as? String, output, input)
        }
    }

    func testRegisteringTheSeedCustomerAttachesALoginAndKeepsItsData() throws {
        let server = try TestServer()
        let r = try server.musbookingRegister(phone: "+7 903 111-22-33", name: "Другое Имя", extra: [
            ("lastname", "Другая"), ("email", "other@example.ru"), ("password", "maria1"), ("birthday", "01.01.2000"),
        ])
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonObject?["login"] as? String, MusbookingSeedData.customerPhone)
        let login = try server.request("POST", "/api/auth/login", form: [("login", "9031112233"), ("password", "maria1")])
        XCTAssertEqual(login.jsonObject?["key"] as? String, MusbookingSeedData.customerId)
        let user = try server.musbookingUser(login.jsonObject?["token"] as? String ?? "").jsonObject ?? [:]
        XCTAssertEqual(user["firstName"] as? String, "Мария")
        XCTAssertEqual(user["lastName"] as? String, "Сидорова")
        XCTAssertEqual(user["surName"] as? String, "Олеговна")
        XCTAssertEqual(user["email"] as? String, "maria.sidorova@example.ru")
        XCTAssertEqual(user["birthday"] as? String, "08.03.1995 00:00:00")
        XCTAssertEqual(user["base"] as? String, "Студия на Арбате")
        XCTAssertEqual(user["login"] as? String, "9031112233")
    }
}
