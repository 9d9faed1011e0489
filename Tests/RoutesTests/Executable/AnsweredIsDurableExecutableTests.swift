import Foundation
import XCTest
import HTTPServer
import MockTestSupport
import TestSupport

/// Issue 28 R1 and R6 on the real executable: every change a client is answered for is on disk
/// before the answer, whatever its path. Each case makes a change, sends SIGKILL the moment the
/// answer arrives (0 ms grace), restarts on the same file and checks the change is there. Each
/// runs several rounds: before the fix a swap's 204 came before its write in 23 of 30 kills.
final class AnsweredIsDurableExecutableTests: TemporaryDirectoryTestCase {
    private static let rounds = 4
    private let json = [("Content-Type", "application/json")]

    private func launch() throws -> (TestExecutable, Int) {
        let server = try TestExecutable(["--seed", TestServer.repositorySeedPath, "--port", "0", "--state", statePath, "--log-level", "warning"])
        return (server, try server.bannerPort())
    }

    private func request(_ port: Int, _ method: String, _ path: String, body: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest(method, path, headers: method == "GET" ? [] : json, body: Array(body.utf8))
        return try client.readResponse()
    }

    private func addRowsAccount(_ port: Int, _ email: String) throws {
        let created = try request(port, "POST", "/__mock/accounts", body: #"{"system": "rows", "email": "\#(email)", "password": "secret1"}"#)
        XCTAssertEqual(created.status, 201, created.text)
    }

    private func rowsLogin(_ port: Int, _ email: String) throws -> Int {
        try request(port, "POST", "/auth/login", body: #"{"email": "\#(email)", "password": "secret1"}"#).status
    }

    /// `round` makes an account, then the change under test (answered 204) that must remove it; the
    /// server is killed at the answer, and after the restart the account must be gone.
    private func killAtTheAnswer(_ name: String, _ change: (_ port: Int, _ round: Int) throws -> TestResponse) throws {
        for round in 0..<Self.rounds {
            let (server, port) = try launch()
            let email = "\(name)-\(round)@example.com"
            let answer = try change(port, round)
            server.stopNow()   // SIGKILL at once: the answer is all the client knows
            XCTAssertEqual(answer.status, 204, "\(name) round \(round): \(answer.text)")
            let (restarted, again) = try launch()
            XCTAssertEqual(try rowsLogin(again, email), 401, "\(name) round \(round): answered 204, yet the account it removed is back after SIGKILL")
            restarted.stopNow()
        }
    }

    func testAPutStateIsOnDiskWhenItIsAnswered() throws {
        try killAtTheAnswer("put") { port, round in
            let document = try request(port, "GET", "/__mock/state").text
            try addRowsAccount(port, "put-\(round)@example.com")
            XCTAssertEqual(try rowsLogin(port, "put-\(round)@example.com"), 200)
            return try request(port, "PUT", "/__mock/state", body: document)
        }
    }

    func testAResetToAPostedSeedIsOnDiskWhenItIsAnswered() throws {
        let seed = try String(contentsOfFile: TestServer.repositorySeedPath, encoding: .utf8)
        try killAtTheAnswer("seeded") { port, round in
            try addRowsAccount(port, "seeded-\(round)@example.com")
            return try request(port, "POST", "/__mock/reset", body: "{\"seed\": \(seed)}")
        }
    }

    /// A bare reset of an app running a posted seed swaps the start seed's app back in.
    func testABareResetAfterASeededOneIsOnDiskWhenItIsAnswered() throws {
        let seed = try String(contentsOfFile: TestServer.repositorySeedPath, encoding: .utf8)
        try killAtTheAnswer("bare-after-seeded") { port, round in
            XCTAssertEqual(try request(port, "POST", "/__mock/reset", body: "{\"seed\": \(seed)}").status, 204)
            try addRowsAccount(port, "bare-after-seeded-\(round)@example.com")
            return try request(port, "POST", "/__mock/reset")
        }
    }

    func testABareResetInPlaceIsOnDiskWhenItIsAnswered() throws {
        try killAtTheAnswer("bare") { port, round in
            try addRowsAccount(port, "bare-\(round)@example.com")
            return try request(port, "POST", "/__mock/reset")
        }
    }

    /// R5: a reset to a posted seed survives a restart for every system (rows and gateway, which
    /// kept only changes relative to `--seed`, included), after SIGTERM and after SIGKILL; a bare
    /// reset then goes back to `--seed`.
    func testAPostedSeedRunsAgainAfterARestart() throws {
        let original = try String(contentsOfFile: TestServer.repositorySeedPath, encoding: .utf8)
        let posted = original.replacingOccurrences(of: "johndown@exmample.com", with: "posted-rows@example.com")
            .replacingOccurrences(of: "fpi@bk.ru", with: "posted-gateway@example.com")
        XCTAssertNotEqual(posted, original)
        var (server, port) = try launch()
        XCTAssertEqual(try request(port, "POST", "/__mock/reset", body: "{\"seed\": \(posted)}").status, 204)
        for stop in [SIGTERM, SIGKILL] {
            server.signal(stop)
            _ = try server.exitStatus()
            (server, port) = try launch()
            let accounts = try request(port, "GET", "/__mock/accounts").text
            XCTAssertTrue(accounts.contains("posted-gateway@example.com") && !accounts.contains("fpi@bk.ru"), "after \(stop): \(accounts)")
            let login = try request(port, "POST", "/auth/login", body: #"{"email": "posted-rows@example.com", "password": "1234567"}"#)
            XCTAssertEqual(login.status, 200, "after \(stop): the posted seed's rows account")
            XCTAssertEqual(try request(port, "POST", "/auth/login", body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#).status, 401)
        }
        XCTAssertEqual(try request(port, "POST", "/__mock/reset").status, 204)
        XCTAssertEqual(try request(port, "POST", "/auth/login", body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#).status, 200,
                       "a bare reset goes back to --seed")
        server.stopNow()
        (server, port) = try launch()
        XCTAssertEqual(try request(port, "POST", "/auth/login", body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#).status, 200,
                       "and so does the next start")
        server.stopNow()
    }
}
