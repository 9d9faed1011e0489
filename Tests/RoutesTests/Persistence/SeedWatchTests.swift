import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import StatePersistence

/// `--watch`: the seed file polled, a good edit resetting to it, a bad one logged and ignored.
final class SeedWatchTests: TemporaryDirectoryTestCase {
    private var seedPath: String { dir.appendingPathComponent("seed.json").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seedPath)
    }

    private func start(_ server: TestServer, log: LogCapture, statePath: String? = nil) throws -> MockPersistence {
        try MockPersistence.start(app: server.app, server: server.server, statePath: statePath, watchSeed: seedPath, logger: log.logger, pollInterval: 0.01)
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

    /// No polling to fall back on (an hour's interval): on Linux inotify on the file's folder sees
    /// an edit in place and a save by rename.
    func testTheWatcherSeesChangesWithoutPolling() throws {
        #if os(Linux)
        let changes = Locked(0)
        let watcher = FileWatcher(path: seedPath, interval: 3600) { changes.withLock { $0 += 1 } }
        XCTAssertEqual(watcher.mechanism, "inotify")
        watcher.start()
        defer { watcher.stop() }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: seedPath))
        waitUntil("the edit") { changes.withLock { $0 } == 1 }
        let other = dir.appendingPathComponent("seed.json.new")
        try Data("{ }".utf8).write(to: other)
        XCTAssertEqual(rename(other.path, seedPath), 0)
        waitUntil("the save by rename") { changes.withLock { $0 } == 2 }
        #endif
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

    func testAGoodEditAppliesTheNewSeedAndRewritesTheStateFile() throws {
        let server = try TestServer(seedPath: seedPath)
        let log = LogCapture()
        let statePath = dir.appendingPathComponent("state.json").path
        let persistence = try start(server, log: log, statePath: statePath)
        defer { persistence.close() }
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9031234567")]).status, 200)
        waitUntil("the SMS in the state file") { statePhones(statePath) == ["9031234567"] }

        var text = try String(contentsOfFile: seedPath, encoding: .utf8)
        XCTAssertTrue(text.contains("skyzonecustomer@gmail.com"))
        text = text.replacingOccurrences(of: "skyzonecustomer@gmail.com", with: "edited@example.com")
        try Data(text.utf8).write(to: URL(fileURLWithPath: seedPath))
        waitUntil("the reload") { log.contains("seed reloaded from \(seedPath)") }
        XCTAssertFalse(persistence.app === server.app, "a new app, built from the edited seed")

        // The edited seed answers now: its account signs in, the one it replaced does not.
        let edited = try server.request("POST", "/tokens", json: ["username": "edited@example.com", "password": "password1"])
        XCTAssertEqual(edited.status, 200, edited.text)
        let old = try server.request("POST", "/tokens", json: ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        XCTAssertEqual(old.status, 401, old.text)
        XCTAssertEqual(server.outbox.sms(), [])

        // The state file follows the new app: its accounts, and its changes from now on.
        waitUntil("the new seed in the state file") {
            let accounts = ((try? stateSystems(statePath))?["skyzone"] as? [String: Any])?["accounts"] as? [[String: Any]] ?? []
            return statePhones(statePath).isEmpty && accounts.contains { $0["username"] as? String == "edited@example.com" }
        }
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9037654321")]).status, 200)
        waitUntil("a change of the new app in the state file") { statePhones(statePath) == ["9037654321"] }
    }
}
