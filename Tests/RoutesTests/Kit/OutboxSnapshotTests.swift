import Foundation
import XCTest
import HTTPServer
@testable import Routes
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

/// Cached per-element JSON gives exactly what a fresh encoding gives, whatever the list became.
final class EncodedListCacheTests: XCTestCase {
    func testEveryChangeOfTheListEncodesAsAFreshCacheWould() {
        let encodeCount = Locked(0)
        func encode(_ n: Int) -> [UInt8] { encodeCount.withLock { $0 += 1 }; return Array("\(n)".utf8) }
        let cache = EncodedListCache<Int>()
        let lists: [[Int]] = [[], [1, 2, 3], [1, 2, 3, 4], [3, 4, 5], [9], [9, 9, 10], [], [7, 8]]
        for list in lists {
            XCTAssertEqual(String(decoding: cache.json(for: list, encode: encode), as: UTF8.self),
                           "[" + list.map(String.init).joined(separator: ",") + "]")
        }
        // 3 + 1 + 1 (5) + 1 (9) + 2 (9, 10) + 2 (7, 8): only new elements were encoded.
        XCTAssertEqual(encodeCount.withLock { $0 }, 10)
    }
}
