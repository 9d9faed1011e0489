import Foundation
import XCTest
import HTTPServer
@testable import Routes
import TestSupport

/// `--watch`: the seed file polled, a good edit resetting to it, a bad one logged and ignored.
final class SeedWatchTests: XCTestCase {
    private var dir: URL!
    private var seedPath: String { dir.appendingPathComponent("seed.json").path }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seedPath)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    private func start(_ server: TestServer, log: LogCapture, statePath: String? = nil) throws -> MockPersistence {
        try MockPersistence.start(app: server.app, statePath: statePath, watchSeed: seedPath, logger: log.logger, pollInterval: 0.01)
    }

    func testTheWatcherReportsEachChangeOfTheFile() throws {
        let changes = Locked(0)
        let watcher = FileWatcher(path: seedPath, interval: 0.01) { changes.withLock { $0 += 1 } }
        watcher.start()
        defer { watcher.stop() }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: seedPath))
        waitUntil("the first change") { changes.withLock { $0 } == 1 }
        // Saved the way editors do: a new file renamed over the old one.
        let other = dir.appendingPathComponent("seed.json.new")
        try Data("{ }".utf8).write(to: other)
        XCTAssertEqual(rename(other.path, seedPath), 0)
        waitUntil("the second change") { changes.withLock { $0 } == 2 }
    }

    func testABadEditIsLoggedWithItsPlaceAndTheRunningStateIsKept() throws {
        let server = try TestServer(seedPath: seedPath)
        let log = LogCapture()
        let persistence = try start(server, log: log)
        defer { persistence.close() }
        server.outbox.sendSMS(to: "9031234567", text: "kept")
        try Data("{\n  \"rows\": {,\n}".utf8).write(to: URL(fileURLWithPath: seedPath))
        waitUntil("the warning") { log.contains("seed not reloaded") }
        let warning = log.all.first { $0.contains("seed not reloaded") } ?? ""
        XCTAssertTrue(warning.contains(seedPath) && warning.contains("line 2, column"), warning)
        XCTAssertEqual(server.outbox.sms().map(\.text), ["kept"])
        XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
    }

    func testAGoodEditResetsToTheNewSeedAndRewritesTheStateFile() throws {
        let server = try TestServer(seedPath: seedPath)
        let log = LogCapture()
        let statePath = dir.appendingPathComponent("state.json").path
        let persistence = try start(server, log: log, statePath: statePath)
        defer { persistence.close() }
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9031234567")]).status, 200)
        waitUntil("the SMS in the state file") { statePhones(statePath) == ["9031234567"] }

        var text = try String(contentsOfFile: seedPath, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"pageSize\": 20", with: "\"pageSize\": 10")
        try Data(text.utf8).write(to: URL(fileURLWithPath: seedPath))
        waitUntil("the reload") { log.contains("seed reloaded from \(seedPath)") }
        XCTAssertEqual(server.outbox.sms(), [])
        waitUntil("the reset in the state file") { statePhones(statePath).isEmpty }
    }
}
