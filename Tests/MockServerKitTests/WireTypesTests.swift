import Foundation
import XCTest
@testable import MockServerAdminClient
@testable import MockAdminWire

/// The wire types write the server's bytes and read them back, whatever the coder's date strategy.
final class WireTypesTests: XCTestCase {
    /// 2026-11-22T11:14:30Z.
    private let moment = Date(timeIntervalSince1970: 1_795_346_070)

    func testDatesAreWrittenInTheOneFormWhateverTheEncodersStrategy() throws {
        let sms = MockSMS(phone: "9123456789", text: "Код: 1234", code: nil, sentAt: moment.addingTimeInterval(0.75))
        for strategy in [JSONEncoder.DateEncodingStrategy.deferredToDate, .secondsSince1970, .iso8601] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = strategy
            XCTAssertEqual(String(decoding: try encoder.encode(sms), as: UTF8.self),
                           #"{"code":null,"phone":"9123456789","sentAt":"2026-11-22T11:14:30Z","text":"Код: 1234"}"#)
            let account = MockAccount(id: "a", sessions: [MockAccount.Session(token: "0123456789", expiresAt: moment)])
            XCTAssertEqual(String(decoding: try encoder.encode(account), as: UTF8.self),
                           #"{"id":"a","sessions":[{"expiresAt":"2026-11-22T11:14:30Z","token":"0123…"}]}"#)
        }
    }

    func testDatesAreReadInTheServersFormAndWithAnOffset() throws {
        let decoder = JSONDecoder()
        let clock = try decoder.decode(MockClock.self, from: Data(#"{"now":"2026-11-22T11:14:30Z","offsetSeconds":0}"#.utf8))
        XCTAssertEqual(clock.now, moment)
        let offset = try decoder.decode(MockClock.self, from: Data(#"{"now":"2026-11-22T14:14:30+03:00","offsetSeconds":0}"#.utf8))
        XCTAssertEqual(offset.now, moment)
        let session = try decoder.decode(MockAccount.Session.self, from: Data(#"{"token":"abcd…"}"#.utf8))
        XCTAssertNil(session.expiresAt)
        XCTAssertThrowsError(try decoder.decode(MockClock.self, from: Data(#"{"now":"yesterday","offsetSeconds":0}"#.utf8)))
        XCTAssertNil(WireDate.date("2026-13-01T00:00:00Z"))
        XCTAssertEqual(WireDate.date("2024-02-29T23:59:59Z"), Date(timeIntervalSince1970: 1_709_251_199))
        XCTAssertEqual(WireDate.date("1969-12-31T23:59:59Z"), Date(timeIntervalSince1970: -1))
    }

    func testAFaultActionReadsBackAsWritten() throws {
        let actions: [MockFaultAction] = [.delay(milliseconds: 2_000), .respond(status: 503, body: "down", headers: ["B": "2", "A": "1"]),
                                          .respond(status: 500), .close, .reset, .truncate, .malformedJSON, .reply("{}"), .noReply, .closeCode(4001)]
        for action in actions {
            XCTAssertEqual(try JSONDecoder().decode(MockFaultAction.self, from: try JSONEncoder().encode(action)), action)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(MockFaultAction.self, from: Data(#"{"nothing":true}"#.utf8)))
    }
}
