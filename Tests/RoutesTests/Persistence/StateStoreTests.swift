import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit
@testable import StatePersistence

/// The `--state` file over a real server: created from the seed, following changes, restored on
/// a restart, reset with the mock, and refusing files it cannot trust.
final class StateStoreTests: TemporaryDirectoryTestCase {
    private func open(_ server: TestServer, logger: Logger = .silent, writeInterval: TimeInterval = StateStore.defaultWriteInterval) throws -> StateStore {
        try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: logger, writeInterval: writeInterval)
    }

    private func sendCode(_ server: TestServer, _ phone: String) throws {
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", phone)]).status, 200)
    }

    private func rowsToken(_ server: TestServer) throws -> String {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        return try XCTUnwrap(login.jsonObject?["token"] as? String)
    }

    func testAMissingFileIsCreatedFromTheSeed() throws {
        let server = try TestServer()
        let store = try open(server)
        defer { store.close() }
        let systems = try stateSystems(statePath)
        XCTAssertEqual(Set(systems.keys), ["gateway", "musbooking", "outbox", "rows", "seed", "skyzone"])
        XCTAssertEqual(statePhones(statePath), [])
        let text = try String(contentsOfFile: statePath, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(#"{"format":"mock-server-state","version":3,"generation":1,"epoch":""#), text)
    }

    /// No flush: the file follows an answered request on its own, within the write delay.
    func testAnAnsweredChangeReachesTheFileWithoutAFlush() throws {
        let server = try TestServer()
        let store = try open(server)
        defer { store.close() }
        try sendCode(server, "9031234567")
        waitUntil("the SMS in the state file") { statePhones(statePath) == ["9031234567"] }
    }

    func testARestartRestoresTheOutboxAndRowsTokensStayValid() throws {
        let first = try TestServer(random: SeededRandomSource(seed: 1))
        var store = try open(first)
        try sendCode(first, "9031234567")
        let token = try rowsToken(first)
        XCTAssertEqual(try first.request("GET", "/rows/1", headers: [("authorization", token)]).status, 200)
        store.close()
        first.stop()

        // Another random seed: without the file the key (and so the token) would differ.
        let second = try TestServer(random: SeededRandomSource(seed: 2))
        XCTAssertEqual(try second.request("GET", "/rows/1", headers: [("authorization", token)]).status, 403)
        let log = LogCapture()
        store = try open(second, logger: log.logger)
        defer { store.close() }
        XCTAssertEqual(try second.request("GET", "/rows/1", headers: [("authorization", token)]).status, 200)
        XCTAssertEqual(second.outbox.sms().map(\.phone), ["9031234567"])
        XCTAssertTrue(log.contains("state loaded from \(statePath)"), "\(log.all)")
    }

    func testResetRewritesTheFileBackToTheSeed() throws {
        let server = try TestServer()
        let store = try open(server)
        defer { store.close() }
        try sendCode(server, "9031234567")
        store.flush()
        let keyBefore = try XCTUnwrap((try stateSystems(statePath)["rows"] as? [String: Any])?["tokenKey"] as? String)
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: [("X-Mock-Admin", "1")]).status, 204)
        waitUntil("the reset in the state file") {
            let key = (try? stateSystems(statePath)["rows"] as? [String: Any])?["tokenKey"] as? String
            return statePhones(statePath).isEmpty && key != nil && key != keyBefore
        }
    }

    /// A burst of changes costs at most two writes when the interval cannot pass during it:
    /// the first change is written at once, the rest wait for the interval and share one write.
    func testABurstOfChangesIsCoalesced() throws {
        let server = try TestServer()
        let store = try open(server, writeInterval: 3600)
        defer { store.close() }
        for i in 0..<50 { server.outbox.sendSMS(to: "90300000\(i / 10)\(i % 10)", text: "x") }
        store.flush()
        XCTAssertEqual(statePhones(statePath).count, 50)
        XCTAssertLessThanOrEqual(store.writeCount, 2)
        XCTAssertGreaterThanOrEqual(store.writeCount, 1)
    }

    func testACorruptFileStopsTheStartNamingTheFileAndThePlace() throws {
        try Data("{\"format\": \"mock-server-state\",\n  \"version\": 1,\n  \"systems\": {\"outbox\": {\"sms\": [}\n}".utf8).write(to: URL(fileURLWithPath: statePath))
        try assertRefused(containing: ["not valid JSON at line 3"])
    }

    func testAFileFromTheFutureStopsTheStart() throws {
        try Data(#"{"format": "mock-server-state", "version": 4, "systems": {}}"#.utf8).write(to: URL(fileURLWithPath: statePath))
        try assertRefused(containing: ["newer mock-server", "version 4"])
    }

    func testOtherUnusableFilesStopTheStart() throws {
        let cases: [(String, String)] = [
            ("", "empty"),
            (#"{"hello": "world"}"#, "not a mock-server state file"),
            (#"[1, 2]"#, "not a mock-server state file"),
            (#"{"format": "mock-server-state", "systems": {}}"#, "no \"version\""),
            (#"{"format": "mock-server-state", "version": 1, "systems": {"outbox": {"sms": 3, "emails": []}}}"#, "systems.outbox.sms"),
            (#"{"format": "mock-server-state", "version": 1, "systems": {"rows": {"tokenKey": "xyz"}}}"#, "systems.rows: a token key must be 32 hex digits"),
        ]
        for (text, expected) in cases {
            try Data(text.utf8).write(to: URL(fileURLWithPath: statePath))
            try assertRefused(containing: [expected])
        }
    }

    func testPartsMissingFromTheFileKeepTheSeedAndUnknownOnesAreReported() throws {
        try Data(#"{"format": "mock-server-state", "version": 1, "systems": {"weather": {"sunny": true}}}"#.utf8).write(to: URL(fileURLWithPath: statePath))
        let server = try TestServer()
        let log = LogCapture()
        let store = try open(server, logger: log.logger)
        defer { store.close() }
        XCTAssertTrue(log.contains("keeps no \"weather\""), "\(log.all)")
        XCTAssertEqual(server.outbox.sms(), [])
    }

    /// The start is refused with the file's name and the reason, and the file is left as it was.
    private func assertRefused(containing expected: [String], line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: statePath))
        let server = try TestServer()
        XCTAssertThrowsError(try open(server), line: line) { error in
            let message = "\(error)"
            XCTAssertTrue(error is StateFileError, message, line: line)
            XCTAssertTrue(message.hasPrefix(statePath + ": "), message, line: line)
            for text in expected { XCTAssertTrue(message.contains(text), "\(message) lacks \(text)", line: line) }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: statePath)), before, "the file must not be touched", line: line)
    }
}
