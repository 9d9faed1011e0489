import Foundation
import HTTPServer
@testable import Routes
import XCTest
@testable import EmulationKit
@testable import MockControl

/// What an entry shows, now that it keeps the exchange as received and builds the JSON when read.
final class JournalEntryTests: XCTestCase {
    private let at = Date(timeIntervalSince1970: 1_800_000_000.25)

    func testAGatewayEntryShowsTheMessageItsTypeAndTheRepliesJoinedByLineFeeds() {
        let message = WebSocketPayload.text(#"{"type":"LOGIN_CUSTOMER","data":{"password":"123123"}}"#)
        let entry = JournalEntry(webSocketMessage: message, replies: [.text(#"{"a":1}"#), .binary(Array("two".utf8))], system: "gateway",
                                 at: at, durationNanos: 1_500_000, fault: nil)
        let json = entry.json
        XCTAssertEqual(json["method"]?.string, "WS")
        XCTAssertEqual(json["path"]?.string, "LOGIN_CUSTOMER")
        XCTAssertEqual(json["status"], 101)
        XCTAssertEqual(json["durationMs"], .number(1.5))
        XCTAssertEqual(json["at"]?.string, "2027-01-15T08:00:00Z")
        XCTAssertEqual(json["requestBody"]?.string, #"{"type":"LOGIN_CUSTOMER","data":{"password":"***"}}"#)
        XCTAssertEqual(json["responseBody"]?.string, "{\"a\":1}\ntwo")
        XCTAssertNil(json["truncated"])
        XCTAssertEqual(JournalEntry(webSocketMessage: message, replies: [], system: "gateway", at: at, durationNanos: 0, fault: nil).json["responseBody"]?.string, "")
    }

    /// Bodies over 16 KiB keep only their start; the cut still backs off a split UTF-8 character.
    func testAHugeBodyIsCutWhenRecordedAndShownLikeASmallerOne() {
        let huge = Array("x".utf8) + Array(String(repeating: "ж", count: 10_000).utf8)
        let entry = JournalEntry(at: at, system: "rows", method: "POST", path: "/p", query: "", status: 200,
                                 durationNanos: 0, requestHeaders: HTTPHeaders(), requestBody: huge, responseBody: [], hint: nil)
        XCTAssertEqual(entry.requestBody.count, JournalEntry.bodyLimit + 1, "only the start is kept")
        let shown = entry.json["requestBody"]?.string ?? ""
        XCTAssertEqual(shown.utf8.count, 4095)
        XCTAssertFalse(shown.contains("\u{FFFD}"))
        XCTAssertEqual(entry.json["truncated"], true)
        let message = WebSocketPayload.text(String(repeating: "y", count: 20_000))
        let ws = JournalEntry(webSocketMessage: message, replies: [message], system: "gateway", at: at, durationNanos: 0, fault: nil)
        XCTAssertEqual(ws.requestBody.count, JournalEntry.bodyLimit + 1)
        XCTAssertEqual(ws.responseBody.count, JournalEntry.bodyLimit + 1)
        XCTAssertEqual((ws.json["responseBody"]?.string)?.utf8.count, JournalEntry.bodyLimit)
        XCTAssertEqual(ws.json["truncated"], true)
    }

    func testTheRingGivesIdsInOrderAndKeepsTheNewest() {
        let journal = RequestJournal(capacity: 2)
        for path in ["/a", "/b", "/c"] {
            journal.record(JournalEntry(at: at, system: nil, method: "GET", path: path, query: "", status: 404, durationNanos: 0,
                                        requestHeaders: HTTPHeaders(), requestBody: [], responseBody: [], hint: nil))
        }
        XCTAssertEqual(journal.entries().map(\.path), ["/b", "/c"])
        XCTAssertEqual(journal.entries().map(\.id), [2, 3])
        journal.clear()
        XCTAssertEqual(journal.entries().count, 0)
    }

    /// On the real clock the offset clock reads the wall clock itself (no `Date()`): same time.
    func testTheOffsetClockOnTheSystemClockReadsWallTime() {
        let clock = OffsetClock()
        XCTAssertEqual(clock.now().timeIntervalSince1970, Date().timeIntervalSince1970, accuracy: 1)
        clock.advance(by: 3600)
        clock.advance(by: 60)
        XCTAssertEqual(clock.offsetSeconds, 3660)
        XCTAssertEqual(clock.now().timeIntervalSince1970, Date().timeIntervalSince1970 + 3660, accuracy: 1)
        clock.reset()
        XCTAssertEqual(clock.offsetSeconds, 0)
    }
}
