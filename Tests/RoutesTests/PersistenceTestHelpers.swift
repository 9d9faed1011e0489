import Foundation
import XCTest
import HTTPServer
@testable import Routes
import TestSupport

/// A fresh directory per test, removed afterwards.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("mock-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A test case with a fresh temporary directory per test, removed afterwards, and a state file's
/// place in it (created by the code under test, not here).
class TemporaryDirectoryTestCase: XCTestCase {
    var dir: URL!
    var statePath: String { dir.appendingPathComponent("state.json").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        dir = try makeTemporaryDirectory()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }
}

/// Waits until `condition` holds, checking every 2 ms, failing after `timeout` seconds
/// (a deadline for slow machines, not a delay: it returns as soon as the condition holds).
func waitUntil(_ what: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line,
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
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])
    var logger: Logger { Logger(level: .info) { [lines] line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

/// The `"systems"` object of a state file, parsed.
func stateSystems(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?["systems"] as? [String: Any] ?? [:]
}

/// The phones of the SMS kept in a state file (empty when it cannot be read).
func statePhones(_ path: String) -> [String] {
    let systems = (try? stateSystems(path)) ?? [:]
    let sms = (systems["outbox"] as? [String: Any])?["sms"] as? [[String: Any]] ?? []
    return sms.compactMap { $0["phone"] as? String }
}
