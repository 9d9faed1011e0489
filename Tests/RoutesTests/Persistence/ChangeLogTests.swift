import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit
@testable import StatePersistence

/// The change log beside the state file (issue 20 §3): records per change, groups that count only
/// once committed, replay over the base at a start, compaction into a new base.
final class ChangeLogTests: TemporaryDirectoryTestCase {
    func testOnlyTheDifferenceBecomesRecords() {
        let image = RecordImage()
        var first = RecordSink(image: image)
        first.keyed("users", [("a", 1), ("b", 2)]) { key, value in Array("{\"id\":\"\(key)\",\"n\":\(value)}".utf8) }
        XCTAssertEqual(first.ops.count, 2)
        var second = RecordSink(image: image)
        second.keyed("users", [("a", 1), ("b", 3), ("c", 4)]) { key, value in Array("{\"id\":\"\(key)\",\"n\":\(value)}".utf8) }
        XCTAssertEqual(second.ops.map { if case .upsert(_, let key, _, _) = $0 { return key } else { return "?" } }, ["b", "c"])
        var third = RecordSink(image: image)
        var touched = TouchedKeys()
        _ = touched.take()
        touched.touch("a")
        third.keyed("users", touched: touched, count: 2, all: { [("b", 3), ("c", 4)] }, lookup: { $0 == "a" ? nil : 1 }) { _, _ in [] }
        XCTAssertEqual(third.ops, [.delete("users", key: "a")], "a touched key that is gone is deleted; nothing else is looked at")
        XCTAssertEqual(String(decoding: image.json(), as: UTF8.self), #"{"users":[{"id":"b","n":3},{"id":"c","n":4}]}"#)
    }

    func testAGroupWithoutItsCommitLineIsIgnoredAndADamagedOneRefused() throws {
        let path = dir.appendingPathComponent("log").path
        let committed = ChangeLog.encode([("outbox", .listAppend("sms", Array("{\"phone\":\"1\"}".utf8)))], commit: 1)
        let torn = Array(ChangeLog.encode([("outbox", .listAppend("sms", Array("{\"phone\":\"2\"}".utf8)))], commit: 2).dropLast(14))
        try Data(committed + torn).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try ChangeLog.read(path).ops.count, 1, "the unfinished group was never answered")
        try Data(Array("not a record\n".utf8) + committed).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ChangeLog.read(path)) { XCTAssertTrue("\($0)".contains("line 1"), "\($0)") }
    }

    func testALogThatOutgrowsTheBaseIsCompactedInTheBackgroundAndNothingIsLost() throws {
        var server = try TestServer()
        var store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        store.logged.compactionBytes.withLock { $0 = 1 }
        let first = store.logged.generation
        var phones: [String] = []
        // Enough SMS for the log to pass the (small) base several times.
        for i in 0..<40 {
            let phone = "903\(String(format: "%07d", i))"
            phones.append(phone)
            server.outbox.sendSMS(to: phone, text: String(repeating: "x", count: 200))
            store.flush()
            // A compaction started while another runs is skipped: wait, so the count of them
            // depends on sizes alone, not on how fast the background thread is.
            store.logged.waitForCompaction()
        }
        XCTAssertGreaterThan(store.logged.generation, first + 1, "changes went to new logs while bases were written")
        XCTAssertEqual(ChangeLog.generations(of: statePath).filter { $0 < store.logged.generation - 1 }, [],
                       "a log is removed once the base after it is on disk")
        XCTAssertEqual(Set(statePhones(statePath)), Set(phones))
        // As after a SIGKILL: a new server on the file has every message.
        store.closeForTests()
        server = try TestServer()
        store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        defer { store.close() }
        XCTAssertEqual(Set(server.outbox.sms().map(\.phone)), Set(phones))
    }

    func testARestartReplaysTheLogAndACleanStopLeavesTheBaseComplete() throws {
        var server = try TestServer()
        var store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        server.outbox.sendSMS(to: "9031111111", text: "one")
        store.flush()
        let log = try XCTUnwrap(ChangeLog.generations(of: statePath).last.map { ChangeLog.path(for: statePath, generation: $0) })
        XCTAssertTrue((try String(contentsOfFile: log, encoding: .utf8)).contains("9031111111"), "the change went to the log")
        XCTAssertFalse((try String(contentsOfFile: statePath, encoding: .utf8)).contains("9031111111"), "not to the base")
        // As after a SIGKILL: the store is not closed; a new server on the file replays the log.
        store.logged.simulatedFailure.withLock { $0 = "stopped" }
        server = try TestServer()
        let lockPath = FileLock.lockPath(for: statePath)
        try? FileManager.default.removeItem(atPath: lockPath)
        store.closeForTests()
        store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        XCTAssertEqual(server.outbox.sms().map(\.phone), ["9031111111"])
        store.close()
        XCTAssertTrue((try String(contentsOfFile: statePath, encoding: .utf8)).contains("9031111111"), "a clean stop writes the base")
        XCTAssertEqual(ChangeLog.generations(of: statePath).count, 0, "and removes the logs")
    }
}
