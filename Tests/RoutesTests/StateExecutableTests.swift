import Foundation
import XCTest
import HTTPServer
import TestSupport

/// `--state` on the real executable: a restart keeps state, unusable files stop the start (65).
final class StateExecutableTests: XCTestCase {
    private var dir: URL!
    private var statePath: String { dir.appendingPathComponent("state.json").path }

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    private var binary: URL {
        get throws {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mock-server")
            let inRepo = URL(fileURLWithPath: TestServer.repositorySeedPath).deletingLastPathComponent()
                .appendingPathComponent(".build/debug/mock-server")
            for candidate in [beside, inRepo] where FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            throw TestClientError("mock-server executable not found beside the tests (run `swift build` first)")
        }
    }

    private func launch(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try binary
        process.arguments = ["--seed", TestServer.repositorySeedPath] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    private func bannerPort(_ pipe: Pipe) throws -> Int {
        var text = ""
        while !text.contains("\n") {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw TestClientError("no banner; output so far: \(text)") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            throw TestClientError("banner without a URL: \(text)")
        }
        return port
    }

    private func finish(_ process: Process, _ err: Pipe) -> (Int32, String) {
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    private func request(_ port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest(method, path, headers: headers, body: Array(body.utf8))
        return try client.readResponse()
    }

    func testStateSurvivesSIGKILLAndTheRestartServesTheSavedToken() throws {
        var (process, out, err) = try launch(["--port", "0", "--state", statePath])
        var port = try bannerPort(out)
        let login = try request(port, "POST", "/auth/login", headers: [("Content-Type", "application/json")],
                                body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#)
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String)
        XCTAssertEqual(try request(port, "POST", "/api/users/sms", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: "phone=9031234567").status, 200)
        waitUntil("the SMS in the state file") { statePhones(statePath) == ["9031234567"] }
        kill(process.processIdentifier, SIGKILL)
        _ = finish(process, err)

        (process, out, err) = try launch(["--port", "0", "--state", statePath])
        port = try bannerPort(out)
        XCTAssertEqual(try request(port, "GET", "/rows/1", headers: [("authorization", token)]).status, 200)
        XCTAssertTrue(try request(port, "GET", "/__mock/sms").text.contains("9031234567"))
        kill(process.processIdentifier, SIGTERM)
        XCTAssertEqual(finish(process, err).0, 0)
    }

    func testCorruptAndFutureFilesStopTheStartWithExitCode65NamingTheFile() throws {
        let cases = [
            ("{\"format\": \"mock-server-state\", \"version\": 1, \"systems\": {", "not valid JSON at line 1"),
            (#"{"format": "mock-server-state", "version": 7, "systems": {}}"#, "newer mock-server"),
        ]
        for (text, expected) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: statePath))
            let (process, _, err) = try launch(["--port", "0", "--state", statePath])
            let (status, message) = finish(process, err)
            XCTAssertEqual(status, 65, message)
            XCTAssertTrue(message.contains(statePath) && message.contains(expected), message)
            XCTAssertEqual(try String(contentsOfFile: statePath, encoding: .utf8), text, "the file is left as it was")
        }
    }

    func testHelpNamesStateAndWatch() throws {
        let (process, out, err) = try launch(["--help"])
        let help = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(finish(process, err).0, 0)
        for text in ["--state PATH", "MOCK_STATE", "--watch", "MOCK_WATCH", "50 ms", "300 ms"] {
            XCTAssertTrue(help.contains(text), text)
        }
    }

    /// `--watch` on the executable: a bad edit is logged with its place, a good one is applied.
    func testWatchLogsABadEditAndReloadsAGoodOne() throws {
        let seed = dir.appendingPathComponent("seed.json")
        try FileManager.default.copyItem(atPath: TestServer.repositorySeedPath, toPath: seed.path)
        let process = Process()
        process.executableURL = try binary
        process.arguments = ["--port", "0", "--seed", seed.path, "--watch"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let log = Locked("")
        err.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            log.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        defer { err.fileHandleForReading.readabilityHandler = nil }
        let port = try bannerPort(out)
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
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testTheBannerNamesTheStateFileAndTheWatchedSeed() throws {
        let (process, out, err) = try launch(["--port", "0", "--state", statePath, "--watch"])
        var banner = ""
        while !banner.contains("Ctrl-C") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        XCTAssertTrue(banner.contains("state            kept in \(statePath) (written within 50 ms of a change"), banner)
        XCTAssertTrue(banner.contains("watching         \(TestServer.repositorySeedPath): saving it reloads the seed"), banner)
        kill(process.processIdentifier, SIGTERM)
        XCTAssertEqual(finish(process, err).0, 0)
    }

    func testWatchTakesNoValueAndRejectsANonBoolean() throws {
        let (process, _, err) = try launch(["--watch=maybe"])
        XCTAssertEqual(finish(process, err).0, 64)
    }
}
