#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HTTPServer

/// Issue 13 §4: the connection limit follows the descriptor limit, and says so when it bites.
final class FileLimitTests: XCTestCase {
    func testTheLimitLeavesRoomForTheProcessItself() {
        XCTAssertEqual(ConnectionBudget.limit(configured: 10_000, openFiles: 256, eventLoops: 2), 256 - 40)
        XCTAssertEqual(ConnectionBudget.limit(configured: 100, openFiles: 256, eventLoops: 2), 100)
        XCTAssertEqual(ConnectionBudget.limit(configured: 100, openFiles: 10, eventLoops: 2), 1, "never zero")
    }

    func testLoweringTheConfiguredLimitLogsAWarningAndKeepingItDoesNot() {
        let lines = Locked<[String]>([])
        let logger = Logger(level: .info) { line in lines.withLock { $0.append(line) } }
        XCTAssertEqual(ConnectionBudget.apply(configured: 10_000, eventLoops: 2, logger: logger, openFiles: 256), 216)
        XCTAssertEqual(lines.withLock { $0.count }, 1)
        let warning = lines.withLock { $0.first } ?? ""
        XCTAssertTrue(warning.contains("[warning]") && warning.contains("256") && warning.contains("216")
                      && warning.contains("--max-connections 10000"), warning)
        XCTAssertEqual(ConnectionBudget.apply(configured: 100, eventLoops: 2, logger: logger, openFiles: 256), 100)
        XCTAssertEqual(lines.withLock { $0.count }, 1, "no warning when the configured limit fits")
    }

    func testOpenFileLimitRaisesTheSoftLimitTowardsTheHardOne() {
        var before = rlimit()
        XCTAssertEqual(Sys.getFileLimit(&before), 0)
        let now = Sys.openFileLimit()
        var after = rlimit()
        XCTAssertEqual(Sys.getFileLimit(&after), 0)
        XCTAssertEqual(now, Int(clamping: after.rlim_cur))
        XCTAssertGreaterThanOrEqual(after.rlim_cur, before.rlim_cur, "never lowered")
        XCTAssertEqual(after.rlim_cur, max(before.rlim_cur, min(after.rlim_max, Sys.fileLimitCap)))
    }
}
