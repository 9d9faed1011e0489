import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import MockServerKit

/// Every date under `/__mock/` has one form, ISO 8601 without a fraction, so one standard decoder
/// (`JSONDecoder`'s `.iso8601`) reads the journal's `at`, the outbox's `sentAt` and the clock's `now`.
final class AdminClientDateTests: XCTestCase {
    func testJournalOutboxAndClockDatesAreOneFormAndDecodeAsDates() async throws {
        let server = try EmbeddedMockServer()
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("api/users/sms"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("phone=9123456789".utf8)
        _ = try await URLSession.shared.data(for: request)

        let pattern = try NSRegularExpression(pattern: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#)
        func assertOneForm(_ path: String, _ key: String, file: StaticString = #filePath, line: UInt = #line) async throws {
            let (data, _) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent(path))
            let json = try JSONSerialization.jsonObject(with: data)
            let objects = (json as? [[String: Any]]) ?? [json as? [String: Any] ?? [:]]
            let text = try XCTUnwrap(objects.first?[key] as? String, "\(path) \(key)", file: file, line: line)
            XCTAssertEqual(pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)), 1, "\(path) \(key): \(text)", file: file, line: line)
        }
        try await assertOneForm("__mock/requests", "at")
        try await assertOneForm("__mock/sms", "sentAt")
        try await assertOneForm("__mock/clock", "now")

        let admin = server.admin
        let entries = try await admin.requests(path: "/api/users/sms")
        let sms = try await admin.sms(phone: "9123456789")
        let clock = try await admin.clock()
        for date in [try XCTUnwrap(entries.first?.at), try XCTUnwrap(sms.first?.sentAt), clock.now] {
            XCTAssertLessThan(abs(date.timeIntervalSinceNow), 3_600, "\(date)")
        }
        XCTAssertEqual(server.sms(phone: "9123456789").first?.sentAt, sms.first?.sentAt, "in-process and over HTTP agree")
    }
}
