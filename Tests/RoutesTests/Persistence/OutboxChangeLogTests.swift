import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit
@testable import StatePersistence

/// Issue 28 R4: the outbox in the change log is cut and appended by message numbers, never by
/// equality. With a fixed code (the README's UI-test advice) identical SMS in the same second are
/// the rule; before, the log's cut landed on an earlier copy and a restart showed other messages.
final class OutboxChangeLogTests: TemporaryDirectoryTestCase {
    func testIdenticalSMSPastTheRollOverComeBackExactlyAfterEachKill() throws {
        let clock = ManualClock()   // one instant: every SMS to a phone is identical
        var outbox = Outbox(clock: clock, logger: .silent, capacity: 3)
        var store = try StateStore.open(path: statePath, parts: [outbox], logger: .silent)
        var random: UInt64 = 28   // a fixed sequence (a linear congruential generator): the same run every time
        func next(_ bound: UInt64) -> UInt64 {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return (random >> 33) % bound
        }
        for round in 0..<40 {
            // Two phones, so equal SMS follow each other; the list rolls over (twice the capacity) often.
            for _ in 0..<(1 + next(8)) {
                outbox.sendSMS(to: next(3) == 0 ? "9030000002" : "9030000001", text: "Your code: 4321", code: "4321")
                if next(2) == 0 { store.flush() }
            }
            store.flush()
            let expected = outbox.sms()
            store.closeForTests()   // as a SIGKILL leaves it
            outbox = Outbox(clock: clock, logger: .silent, capacity: 3)
            store = try StateStore.open(path: statePath, parts: [outbox], logger: .silent)
            XCTAssertEqual(outbox.sms().map(\.phone), expected.map(\.phone), "round \(round): the restart shows what memory held")
        }
        store.close()
    }

    func testTheCutIsFoundByNumberNotByAnEqualEarlierElement() {
        let image = RecordImage()
        var first = RecordSink(image: image)
        first.list("sms", ["a", "a", "b"], end: 3) { Array("\"\($0)\"".utf8) }
        // One dropped at the front, one identical "a"... appended: equality would take "a" at 0 for the start.
        var second = RecordSink(image: image)
        second.list("sms", ["a", "b", "a"], end: 4) { Array("\"\($0)\"".utf8) }
        XCTAssertEqual(second.ops, [.listCut("sms", drop: 1, keep: 2), .listAppend("sms", Array("\"a\"".utf8))])
        XCTAssertEqual(String(decoding: image.json(), as: UTF8.self), #"{"sms":["a","b","a"]}"#)
    }
}
