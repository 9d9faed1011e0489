import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit
import MusbookingSystem

/// Issue 13 item 5: what an unauthenticated client can grow is bounded, and said in the log.
final class MusbookingCapTests: XCTestCase {
    func testTheOldestPendingCodeIsDroppedFirstAndLogged() throws {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } },
                                    environment: { $0.maxPendingSMSCodes = 3 })
        var codes: [String: String] = [:]
        for phone in ["9120000001", "9120000002", "9120000003"] {
            codes[phone] = try server.musbookingCode(phone: phone)
        }
        XCTAssertFalse(lines.withLock { $0 }.contains { $0.contains("pending SMS codes") }, "no cap bit yet")
        // A newer code for the first phone makes it the newest: the second is now the oldest.
        codes["9120000001"] = try server.musbookingCode(phone: "9120000001")
        codes["9120000004"] = try server.musbookingCode(phone: "9120000004")
        let logged = lines.withLock { $0 }.filter { $0.contains("too many pending SMS codes") }
        XCTAssertEqual(logged.count, 1, "\(lines.withLock { $0 })")
        XCTAssertTrue(logged.first?.contains("9120000002") ?? false)
        XCTAssertTrue(logged.first?.contains("--max-pending-sms-codes") ?? false)
        func register(_ phone: String) throws -> TestResponse {
            try server.request("POST", "/api/users/register", form: [("name", "Иван"), ("phone", phone), ("code", codes[phone] ?? ""),
                                                                     ("password", "pass123")])
        }
        assertText(try register("9120000002"), 400, "Не задан или неверен код")
        for phone in ["9120000001", "9120000003", "9120000004"] {
            XCTAssertEqual(try register(phone).status, 200, phone)
        }
    }

    func testTheAccountCapRefusesRegistrationAndSaysSo() throws {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } },
                                    environment: { $0.maxMusbookingAccounts = 1 })
        let r = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        XCTAssertEqual(r.status, 503, r.text)
        XCTAssertTrue(r.header("X-Mock-Hint")?.contains("--max-musbooking-accounts") ?? false)
        XCTAssertTrue(lines.withLock { $0 }.contains { $0.contains("musbooking: account cap reached") })
        // The seed's customer record gets its login: that adds no record.
        let customer = try server.musbookingRegister(phone: MusbookingSeedData.customerPhone, extra: [("password", "maria1")])
        XCTAssertEqual(customer.status, 200, customer.text)
    }
}
