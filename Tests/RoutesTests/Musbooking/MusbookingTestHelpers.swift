import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Shortcuts for the musbooking API over a `TestServer`.
extension TestServer {
    /// Asks for an SMS code and returns it, read from the outbox as a developer would.
    func musbookingCode(phone: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try request("POST", "/api/users/sms", form: [("phone", phone)])
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        let code = outbox.sms(phone: phone).last?.code
        XCTAssertNotNil(code, "no SMS code in the outbox", file: file, line: line)
        return code ?? ""
    }

    /// sms + register; returns the register response.
    func musbookingRegister(phone: String, name: String = "Иван", extra: [(String, String)] = [],
                            file: StaticString = #filePath, line: UInt = #line) throws -> TestResponse {
        let code = try musbookingCode(phone: phone, file: file, line: line)
        return try request("POST", "/api/users/register", form: [("name", name), ("phone", phone), ("code", code)] + extra)
    }

    /// Logs in and returns the token (empty on failure, with the failure recorded).
    func musbookingLogin(_ login: String, _ password: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try request("POST", "/api/auth/login", form: [("login", login), ("password", password)])
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        return r.jsonObject?["token"] as? String ?? ""
    }

    /// `GET api/users/user` with the token.
    func musbookingUser(_ token: String) throws -> TestResponse {
        try request("GET", "/api/users/user", headers: bearer(token))
    }
}

func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

/// Asserts a musbooking error: 400 (or the given status) with exactly this plain-text body.
func assertText(_ r: TestResponse, _ status: Int, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, status, r.text, file: file, line: line)
    XCTAssertEqual(r.text, text, file: file, line: line)
    XCTAssertEqual(r.header("Content-Type"), "text/plain; charset=utf-8", file: file, line: line)
}

/// A `multipart/form-data` body of text fields and its content type.
func multipart(_ fields: [(String, String)], boundary: String = "----MockBoundary7MA4YWxkTrZu0gW") -> (body: [UInt8], contentType: String) {
    var text = ""
    for (name, value) in fields {
        text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
    }
    text += "--\(boundary)--\r\n"
    return (Array(text.utf8), "multipart/form-data; boundary=\(boundary)")
}

/// The seed's account and customer record.
enum MusbookingSeedData {
    static let login = "Test005"
    static let password = "123456"
    static let id = "3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b11"
    static let phone = "9161234567"
    static let email = "test005@mail.com"
    static let customerPhone = "9031112233"
    static let customerId = "7a1c9e3d-2b4f-4d6a-8e0c-1f3a5b7d9e22"
}
