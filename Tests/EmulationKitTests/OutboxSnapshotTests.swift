import Foundation
import XCTest
import HTTPServer
@testable import EmulationKit

/// The outbox's hand-written snapshot JSON reads back as the `Codable` snapshot it stands for.
final class OutboxSnapshotTests: XCTestCase {
    func testTheHandWrittenJSONDecodesToTheSameMessages() throws {
        let outbox = Outbox(clock: ManualClock(), logger: .silent)
        outbox.sendSMS(to: "+7 (903) 123-45-67", text: "Код: 1234 \"quoted\" \\ back\nslash\u{1}", code: "1234")
        outbox.sendSMS(to: "9031234568", text: "no code")
        outbox.sendEmail(to: "Ivan@Example.com", subject: "Подтверждение", body: "Open </a> \t it", link: "http://127.0.0.1:8080/api/users/confirm?id=1&code=2")
        outbox.sendEmail(to: "b@example.com", subject: "s", body: "", link: nil)
        let data = try outbox.encodeSnapshot()
        let decoded = try StateCoding.decoder().decode(OutboxSnapshot.self, from: data)
        XCTAssertEqual(decoded, outbox.snapshot())
        XCTAssertEqual(decoded.sms.count, 2)
        XCTAssertNil(decoded.sms[1].code)
        XCTAssertNil(decoded.emails[1].link)

        let empty = Outbox(clock: ManualClock(), logger: .silent)
        XCTAssertEqual(String(decoding: try empty.encodeSnapshot(), as: UTF8.self), #"{"emails":[],"sms":[]}"#)
    }

    func testRestoreKeepsTheNewestUpToTheCapacity() throws {
        let outbox = Outbox(clock: ManualClock(), logger: .silent, capacity: 2)
        let sms = (1...3).map { SentSMS(phone: "903000000\($0)", text: "t", code: nil, sentAt: Date(timeIntervalSince1970: 1_795_305_600)) }
        try outbox.restore(OutboxSnapshot(sms: sms, emails: []))
        XCTAssertEqual(outbox.sms().map(\.phone), ["9030000002", "9030000003"])
    }
}
