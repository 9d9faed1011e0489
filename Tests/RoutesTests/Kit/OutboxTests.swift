import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// The outbox: what it keeps, and what it logs.
final class OutboxTests: XCTestCase {
    /// It keeps the newest messages when a load test sends more than it holds.
    func testOldestMessagesAreDroppedPastTheCapacity() {
        let outbox = Outbox(clock: ManualClock(), logger: .silent, capacity: 3)
        for i in 1...5 {
            outbox.sendSMS(to: "9123456789", text: "code \(i)", code: "\(i)")
            outbox.sendEmail(to: "a@b.ru", subject: "s\(i)", body: "b")
        }
        XCTAssertEqual(outbox.sms().map(\.code), ["3", "4", "5"])
        XCTAssertEqual(outbox.emails().map(\.subject), ["s3", "s4", "s5"])
    }

    /// Every "sent" message is one readable log line; a password a client sends never is.
    func testEachMessageIsOneLogLineAndClientPasswordsAreNotLogged() throws {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .debug, sink: { line in lines.withLock { $0.append(line) } }))
        let code = try server.musbookingCode(phone: "+7 (912) 345-67-89")
        let register = try server.request("POST", "/api/users/register",
                                          form: [("name", "Иван"), ("phone", "9123456789"), ("code", code),
                                                 ("password", "Secret99x"), ("email", "ivan@example.ru")])
        XCTAssertEqual(register.status, 200, register.text)
        let token = try server.musbookingLogin("9123456789", "Secret99x")
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)

        let log = lines.withLock { $0 }
        XCTAssertEqual(log.filter { $0.contains("SMS to 9123456789: Код подтверждения: \(code)") }.count, 1, "\(log)")
        XCTAssertEqual(log.filter { $0.contains("E-mail to ivan@example.ru: Подтверждение почты") && $0.contains("/api/users/confirm?id=") }.count, 1, "\(log)")
        XCTAssertTrue(log.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false }, "one line each")
        XCTAssertFalse(log.contains { $0.contains("Secret99x") }, "a client's password reached the log")
    }
}
