import Foundation
import XCTest
import HTTPServer
import MockTestSupport
import TestSupport

/// `--state` on the real executable: a restart keeps state, unusable files stop the start (65).
final class StateExecutableTests: TemporaryDirectoryTestCase {
    /// The server on the repository's seed (given explicitly, as a user would).
    private func launch(_ arguments: [String]) throws -> TestExecutable {
        try TestExecutable(["--seed", TestServer.repositorySeedPath] + arguments)
    }

    private func request(_ port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest(method, path, headers: headers, body: Array(body.utf8))
        return try client.readResponse()
    }

    func testStateSurvivesSIGKILLAndTheRestartServesTheSavedToken() throws {
        var server = try launch(["--port", "0", "--state", statePath])
        var port = try server.bannerPort()
        let login = try request(port, "POST", "/auth/login", headers: [("Content-Type", "application/json")],
                                body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#)
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String)
        XCTAssertEqual(try request(port, "POST", "/api/users/sms", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: "phone=9031234567").status, 200)
        waitUntil("the SMS in the state file") { statePhones(statePath) == ["9031234567"] }
        server.stopNow()

        server = try launch(["--port", "0", "--state", statePath])
        port = try server.bannerPort()
        XCTAssertEqual(try request(port, "GET", "/rows/1", headers: [("authorization", token)]).status, 200)
        XCTAssertTrue(try request(port, "GET", "/__mock/sms").text.contains("9031234567"))
        server.signal(SIGTERM)
        XCTAssertEqual(try server.finish().status, 0)
    }

    /// Issue 20 §4 and §6: a second server on the same file refuses to start (69, naming the file
    /// and the holder); the file, which holds passwords, is readable by its owner only.
    func testASecondServerOnTheFileRefusesToStartAndTheFileIsPrivate() throws {
        let first = try launch(["--port", "0", "--state", statePath])
        _ = try first.bannerPort()
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: statePath)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        let second = try launch(["--port", "0", "--state", statePath])
        let (status, log) = try second.finish()
        XCTAssertEqual(status, 69, log)
        XCTAssertTrue(log.contains(statePath) && log.contains("in use by another mock-server"), log)
        XCTAssertTrue(log.contains("pid \(first.process.processIdentifier)"), log)
        first.stopNow()
        // The kernel drops the lock with its holder, even after SIGKILL: a new server starts.
        let third = try launch(["--port", "0", "--state", statePath])
        _ = try third.bannerPort()
        third.signal(SIGTERM)
        XCTAssertEqual(try third.finish().status, 0)
    }

    func testCorruptAndFutureFilesStopTheStartWithExitCode65NamingTheFile() throws {
        let cases = [
            ("{\"format\": \"mock-server-state\", \"version\": 1, \"systems\": {", "not valid JSON at line 1"),
            (#"{"format": "mock-server-state", "version": 7, "systems": {}}"#, "newer mock-server"),
        ]
        for (text, expected) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: statePath))
            let (status, message) = try launch(["--port", "0", "--state", statePath]).finish()
            XCTAssertEqual(status, 65, message)
            XCTAssertTrue(message.contains(statePath) && message.contains(expected), message)
            XCTAssertEqual(try String(contentsOfFile: statePath, encoding: .utf8), text, "the file is left as it was")
        }
    }

    /// Issue 28 R2: a change log that exists but cannot be read stops the start like the base
    /// does (65, naming it), and is left where it is; before, it was taken as empty and deleted.
    func testAChangeLogThatCannotBeReadStopsTheStartWithExitCode65() throws {
        let server = try launch(["--port", "0", "--state", statePath])
        let port = try server.bannerPort()
        XCTAssertEqual(try request(port, "POST", "/__mock/accounts", headers: [("Content-Type", "application/json")],
                                   body: #"{"system": "rows", "email": "kept@example.com", "password": "secret1"}"#).status, 201)
        server.stopNow()
        let logs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("state.json.log.") }
        let log = dir.appendingPathComponent(try XCTUnwrap(logs.first)).path
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
        let (status, message) = try launch(["--port", "0", "--state", statePath]).finish()
        XCTAssertEqual(status, 65, message)
        XCTAssertTrue(message.contains(log), message)
        XCTAssertTrue(FileManager.default.fileExists(atPath: log), "left where it was")
    }

    func testHelpNamesStateAndWatch() throws {
        let server = try launch(["--help"])
        let help = server.readOutput()
        XCTAssertEqual(try server.finish().status, 0)
        for text in ["--state PATH", "MOCK_STATE", "--watch", "MOCK_WATCH", "answered once it is on disk", "300 ms"] {
            XCTAssertTrue(help.contains(text), text)
        }
    }

    /// `--watch` on the executable: a bad edit is logged with its place, a good one is applied.
    func testWatchLogsABadEditAndReloadsAGoodOne() throws {
        let seed = dir.appendingPathComponent("seed.json")
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seed.path)
        let server = try TestExecutable(["--port", "0", "--seed", seed.path, "--watch"])
        let log = Locked("")
        server.errors.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            log.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        defer { server.errors.fileHandleForReading.readabilityHandler = nil }
        let port = try server.bannerPort()
        waitUntil("the watcher to start") { log.withLock { $0 }.contains("watching \(seed.path)") }

        try Data("{\n  \"rows\": [\n".utf8).write(to: seed)
        waitUntil("the bad edit to be logged") { log.withLock { $0 }.contains("seed not reloaded") }
        XCTAssertTrue(log.withLock { $0 }.contains("\(seed.path): not valid JSON at line 3"), log.withLock { $0 })
        XCTAssertEqual(try request(port, "GET", "/__mock/health").status, 200)

        // Saved as editors do (a new file renamed over the old one), with an account renamed.
        let edited = try String(contentsOfFile: TestServer.repositorySeedPath, encoding: .utf8)
            .replacingOccurrences(of: "skyzonecustomer@gmail.com", with: "edited@example.com")
        let saved = dir.appendingPathComponent("seed.json.new")
        try Data(edited.utf8).write(to: saved)
        XCTAssertEqual(rename(saved.path, seed.path), 0)
        waitUntil("the reload") { log.withLock { $0 }.contains("seed reloaded from \(seed.path)") }
        let signIn = try request(port, "POST", "/tokens", headers: [("Content-Type", "application/json")],
                                 body: #"{"username": "edited@example.com", "password": "password1"}"#)
        XCTAssertEqual(signIn.status, 200, "the edited seed's account signs in: \(signIn.text)")
        server.signal(SIGTERM)
        XCTAssertEqual(try server.exitStatus(), 0)
    }

    func testTheBannerNamesTheStateFileAndTheWatchedSeed() throws {
        let server = try launch(["--port", "0", "--state", statePath, "--watch"])
        let banner = try server.banner()
        XCTAssertTrue(banner.contains("state            kept in \(statePath) (a change is answered once it is on disk"), banner)
        XCTAssertTrue(banner.contains("watching         \(TestServer.repositorySeedPath): saving it reloads the seed"), banner)
        server.signal(SIGTERM)
        XCTAssertEqual(try server.finish().status, 0)
    }

    func testWatchTakesNoValueAndRejectsANonBoolean() throws {
        XCTAssertEqual(try launch(["--watch=maybe"]).finish().status, 64)
    }
}
