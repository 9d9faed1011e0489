import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import StatePersistence

/// Issue 28 R2, R3 and R7: a start replays only the logs that follow its base, refuses one it
/// cannot read or that is damaged before committed changes, names what it drops, and still reads
/// a state file written before epochs and checksums (a fixture from 2ddf4f4).
final class ChangeLogIntegrityTests: TemporaryDirectoryTestCase {
    private func logged() -> (Logger, Locked<[String]>) {
        let lines = Locked<[String]>([])
        return (Logger(level: .info) { line in lines.withLock { $0.append(line) } }, lines)
    }

    /// A store on `statePath` that sent `phones` one write each, then "killed" (no clean stop).
    private func killedAfterSending(_ phones: [String]) throws -> String {
        let server = try TestServer()
        let store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        for phone in phones {
            server.outbox.sendSMS(to: phone, text: "code")
            store.flush()
        }
        store.closeForTests()
        return try XCTUnwrap(ChangeLog.generations(of: statePath).last.map { ChangeLog.path(for: statePath, generation: $0) })
    }

    private func reopen(logger: Logger = .silent) throws -> (TestServer, StateStore) {
        let server = try TestServer()
        return (server, try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: logger))
    }

    func testALogThatCannotBeReadStopsTheStartAndIsKept() throws {
        let log = try killedAfterSending(["9031000001"])
        try FileManager.default.removeItem(atPath: log)
        try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: false)
        XCTAssertThrowsError(try reopen()) { error in
            XCTAssertTrue(error is StateFileError && "\(error)".contains(log), "\(error)")
        }
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: log, isDirectory: &isDirectory) && isDirectory.boolValue, "left where it was")
    }

    func testLogsLeftBesideARemovedStateFileAreSetAsideNotReplayed() throws {
        let log = try killedAfterSending(["9031000001", "9031000002"])
        try FileManager.default.removeItem(atPath: statePath)   // "remove the file to start from the seed"
        let (logger, lines) = logged()
        let (server, store) = try reopen(logger: logger)
        defer { store.close() }
        XCTAssertEqual(server.outbox.sms().map(\.phone), [], "nothing of the old state comes back")
        XCTAssertTrue(FileManager.default.fileExists(atPath: log + ".stale"), "set aside under a new name")
        logger.flush()
        XCTAssertEqual(lines.withLock { $0 }.filter { $0.contains("set aside as \(log).stale") }.count, 1, lines.withLock { $0 }.joined(separator: "\n"))
    }

    /// Messages name the path the user gave, not its `realpath`: on a Mac a temporary folder's
    /// `/var/…` resolves to `/private/var/…` (F4). Here a symlinked folder plays `/var`.
    func testMessagesNameTheGivenPathNotTheResolvedOne() throws {
        let real = dir.appendingPathComponent("real"), link = dir.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let given = link.appendingPathComponent("state.json").path
        let first = try TestServer()
        let store = try StateStore.open(path: given, parts: first.app.persistentParts, logger: .silent)
        first.outbox.sendSMS(to: "9031000001", text: "code")
        store.flush()
        store.closeForTests()
        let log = try XCTUnwrap(ChangeLog.generations(of: given).last.map { ChangeLog.path(for: given, generation: $0) })
        try FileManager.default.removeItem(atPath: given)

        let (logger, lines) = logged()
        let second = try TestServer()
        let reopened = try StateStore.open(path: given, parts: second.app.persistentParts, logger: logger)
        defer { reopened.close() }
        logger.flush()
        let text = lines.withLock { $0 }.joined(separator: "\n")
        XCTAssertTrue(text.contains("state: \(log) set aside as \(log).stale"), text)
        XCTAssertFalse(text.contains(real.path), "no message names the resolved folder: \(text)")
    }

    func testALogOfAnotherEpochIsSetAsideNotApplied() throws {
        let log = try killedAfterSending(["9031000001"])
        let stranger = try Data(contentsOf: URL(fileURLWithPath: log))
        try FileManager.default.removeItem(atPath: statePath)
        try FileManager.default.removeItem(atPath: log)
        // Another line of the same file: its base, then the first one's log under this base's generation.
        let other = try killedAfterSending(["9032000002"])
        try FileManager.default.removeItem(atPath: other)
        XCTAssertEqual(ChangeLog.path(for: statePath, generation: 1), log)
        try stranger.write(to: URL(fileURLWithPath: ChangeLog.path(for: statePath, generation: 1)))
        let (server, store) = try reopen()
        defer { store.close() }
        XCTAssertFalse(server.outbox.sms().map(\.phone).contains("9031000001"), "a log of another epoch is not applied")
        XCTAssertTrue(FileManager.default.fileExists(atPath: log + ".stale"))
    }

    func testAFlippedByteInACommittedGroupStopsTheStartWithItsPlace() throws {
        let log = try killedAfterSending(["9031000001", "9031000002", "9031000003"])
        var bytes = try XCTUnwrap(FileBytes.read(log))
        let at = try XCTUnwrap(String(decoding: bytes, as: UTF8.self).range(of: "9031000001")).lowerBound.utf16Offset(in: String(decoding: bytes, as: UTF8.self))
        bytes[at + 9] = UInt8(ascii: "7")   // 9031000001 → 9031000007: valid JSON, wrong data
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        XCTAssertThrowsError(try reopen()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(log) && text.contains("offset") && text.contains("checksum"), text)
        }
        XCTAssertEqual(FileBytes.read(log), bytes, "the log is kept as it is")
    }

    func testATornLastGroupIsDroppedWithOneLogLine() throws {
        let log = try killedAfterSending(["9031000001", "9031000002"])
        let bytes = try XCTUnwrap(FileBytes.read(log))
        try Data(bytes.dropLast(20)).write(to: URL(fileURLWithPath: log))   // into the last commit line
        let (logger, lines) = logged()
        let (server, store) = try reopen(logger: logger)
        defer { store.close() }
        XCTAssertEqual(server.outbox.sms().map(\.phone), ["9031000001"])
        logger.flush()
        XCTAssertEqual(lines.withLock { $0 }.filter { $0.contains("\(log): the last group of changes") && $0.contains("dropped") }.count, 1,
                       lines.withLock { $0 }.joined(separator: "\n"))
    }

    /// A base and log written by mock-server 2ddf4f4 (before epochs and checksums), killed with
    /// changes in the log: every change is there, and the file is rewritten in today's format.
    func testAStateFileWrittenBy2ddf4f4StillLoads() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/state-2ddf4f4")
        for name in ["state.json", "state.json.log.1"] {
            try FileManager.default.copyItem(atPath: fixture.appendingPathComponent(name).path, toPath: dir.appendingPathComponent(name).path)
        }
        let (server, store) = try reopen()
        defer { store.close() }
        XCTAssertEqual(try server.request("POST", "/api/auth/login", form: [("login", "9120000001"), ("password", "pass123")]).status, 200)
        XCTAssertEqual(try server.request("POST", "/auth/login", json: ["email": "fixture@example.com", "password": "secret1"]).status, 200)
        XCTAssertEqual(try server.request("POST", "/tokens", json: ["username": "fixture-sky@example.com", "password": "secret"]).status, 200)
        XCTAssertEqual(server.outbox.sms().map(\.phone), ["9120000002", "9120000002"])
        let text = try String(contentsOfFile: statePath, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(#"{"format":"mock-server-state","version":3,"#), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: statePath + ".log.1.stale"), "its own log was replayed, not set aside")
    }
}

/// Issue 28 R8: the lock and every write go through the file's real path.
final class StatePathTests: TemporaryDirectoryTestCase {
    func testASecondStoreThroughASymlinkIsRefusedAndTheLinkStaysALink() throws {
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: statePath)
        let server = try TestServer()
        let first = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        XCTAssertThrowsError(try StateStore.open(path: link, parts: try TestServer().app.persistentParts, logger: .silent)) { error in
            XCTAssertTrue(error is StateFileInUse, "\(error)")
        }
        first.close()
        // Through the link alone: it writes the file the link names, and the link stays a link.
        let again = try TestServer()
        let store = try StateStore.open(path: link, parts: again.app.persistentParts, logger: .silent)
        XCTAssertEqual(store.logged.path, ResolvedPath.of(statePath))
        again.outbox.sendSMS(to: "9031000001", text: "code")
        store.close()
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), statePath)
        XCTAssertEqual(statePhones(statePath), ["9031000001"])
    }
}
