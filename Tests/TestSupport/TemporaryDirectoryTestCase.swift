import Foundation
import XCTest
import HTTPServer

/// A fresh directory per test, removed afterwards.
package func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mock-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A test case with a fresh temporary directory per test, removed afterwards, and a state file's
/// place in it (created by the code under test, not here).
open class TemporaryDirectoryTestCase: XCTestCase {
    package var dir: URL!
    package var statePath: String { dir.appendingPathComponent("state.json").path }

    override open func setUpWithError() throws {
        try super.setUpWithError()
        dir = try makeTemporaryDirectory()
    }

    override open func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }
}

/// Waits until `condition` holds, checking every 2 ms, failing after `timeout` seconds
/// (a deadline for slow machines, not a delay: it returns as soon as the condition holds).
package func waitUntil(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
                       _ condition: () throws -> Bool) rethrows {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while try !condition() {
        if Date() > deadline {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
            return
        }
        usleep(2_000)
    }
}

/// Log lines collected from a `Logger`.
package final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])
    package init() {}
    package var logger: Logger { Logger(level: .info) { [lines] line in lines.withLock { $0.append(line) } } }
    package var all: [String] { lines.withLock { $0 } }
    package func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

