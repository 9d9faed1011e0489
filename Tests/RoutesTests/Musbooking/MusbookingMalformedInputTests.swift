import Foundation
import XCTest
import HTTPServer
import MockTestSupport
import TestSupport

/// musbooking refuses input it cannot read instead of storing replacement characters or
/// answering with an unrelated "missing field" error.
final class MusbookingMalformedInputTests: MockServerTestCase {

    func testPercentEscapesThatAreNotUTF8AreRefused() throws {
        let token = try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password)
        for body in ["lastname=%C3%28", "name=%FF%FE"] {
            let r = try server.request("POST", "/api/users/change", headers: bearer(token) + [("Content-Type", "application/x-www-form-urlencoded")],
                                       body: Array(body.utf8))
            XCTAssertEqual(r.status, 400, body)
            XCTAssertEqual(r.text, "Неверный формат запроса: текст не в кодировке UTF-8", body)
        }
        let raw = try server.request("POST", "/api/users/change", headers: bearer(token) + [("Content-Type", "application/x-www-form-urlencoded")],
                                     body: Array("lastname=".utf8) + [0xFF, 0xFE])
        XCTAssertEqual(raw.status, 400)
        let user = try XCTUnwrap(server.request("GET", "/api/users/user", headers: bearer(token)).jsonObject)
        XCTAssertEqual(user["lastName"] as? String, "Петров", "nothing was changed")
    }

    func testBrokenMultipartBodiesSaySoAndJSONIsNotRead() throws {
        // ASP.NET does not read a JSON body for simple parameters: the phone is simply absent.
        let json = try server.request("POST", "/api/users/sms", jsonText: "{bad")
        XCTAssertEqual(json.status, 400)
        XCTAssertEqual(json.text, "Не задан номер телефона")
        let multipart = try server.request("POST", "/api/users/sms", headers: [("Content-Type", "multipart/form-data; boundary=XYZ")],
                                           body: Array("garbage".utf8))
        XCTAssertEqual(multipart.status, 400)
        XCTAssertEqual(multipart.text, "Неверный формат запроса: повреждено тело multipart/form-data")
        XCTAssertTrue(server.outbox.sms().isEmpty, "no SMS for a request that could not be read")
    }

    func testLongInputIsCutInTheErrorText() throws {
        let r = try server.request("POST", "/api/users/sms", form: [("phone", String(repeating: "x", count: 3000))])
        XCTAssertEqual(r.status, 400)
        XCTAssertLessThan(r.text.count, 200, r.text)
    }

    func testLinkWithoutHostNamesThePortTheServerListensOn() throws {
        let token = try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password)
        // HTTP/1.0 may omit Host; the link must still lead back to this server.
        let client = try server.connect()
        try client.send("POST /api/users/send-confirm HTTP/1.0\r\nAuthorization: Bearer \(token)\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertEqual(server.outbox.emails().last?.link, "http://127.0.0.1:\(server.port)/api/users/confirm?id=\(MusbookingSeedData.id)")
    }
}
