import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest
import EmulationKit

/// `--mappings DIR`: a folder of WireMock files loads (bodies from `__files`), a bad file is refused
/// with its file, line, column and what was expected (under `--mappings-strict` it stops the
/// start), and `POST /__mock/reset` keeps the folder's stubs.
final class StubFilesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stub-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("__files"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(path))
    }

    func testAFolderLoadsAndResetKeepsItsStubs() throws {
        try write(#"{"mappings": [{"name": "catalogue", "request": {"url": "/catalogue"}, "response": {"bodyFileName": "catalogue.json"}}]}"#, to: "mappings/catalogue.json")
        try write(#"[{"request": {"url": "/one"}, "response": {"body": "1"}}]"#, to: "mappings/array.json")
        try write(#"{"items": []}"#, to: "__files/catalogue.json")
        let path = folder.path
        let server = try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/catalogue").text, #"{"items": []}"#)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/added"}, "response": {"body": "a"}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/one").text, "1", "a --mappings stub survives the reset")
        XCTAssertEqual(try server.request("GET", "/added").status, 404, "an HTTP-added stub does not")
    }

    func testASyntaxErrorNamesFileLineColumnAndWhatWasExpected() throws {
        try write("{\n  \"request\": {\"url\": \"/x\"},,\n}", to: "mappings/broken.json")
        XCTAssertThrowsError(try StubLoading.store(root: folder.path, clock: ManualClock(), strict: true)) { error in
            XCTAssertTrue("\(error)".hasSuffix("mappings/broken.json: /: JSON syntax error at line 2, column 28: expected a quoted name (no `,` before `}`)"), "\(error)")
        }
        try write("{\"request\": {\"url\": \"/x\"}\n", to: "mappings/broken.json")
        let refused = try StubLoading.store(root: folder.path, clock: ManualClock()).loadRecord.current.refused
        XCTAssertEqual(refused.map(\.reason), ["JSON syntax error at line 2, column 1: expected `,` or `}` (the text ends while the `{` at line 1, column 1 is still open)"])
    }

    func testAnUnsupportedFieldNamesFileAndField() throws {
        try write(#"{"request": {"url": "/x"}, "response": {"proxyBaseUrl": "ftp://example.com"}}"#, to: "mappings/proxy.json")
        XCTAssertThrowsError(try StubLoading.store(root: folder.path, clock: ManualClock(), strict: true)) { error in
            XCTAssertTrue("\(error)".contains("proxy.json: /response/proxyBaseUrl"), "\(error)")
        }
    }

    func testTheExecutableRefusesABadFolderUnderStrict() throws {
        try write("{\"request\": ", to: "mappings/cut.json")
        let process = try TestExecutable(["--port", "0", "--mappings", folder.path, "--mappings-strict"])
        let (status, stderr) = try process.finish()
        XCTAssertEqual(status, 65)
        XCTAssertTrue(stderr.contains("cut.json: /: JSON syntax error at line 1, column 13: expected a value"), stderr)
    }
}

/// `--watch` with `--mappings`: a saved file reloads the folder's stubs; a bad one keeps its own and says why.
final class StubFolderWatchTests: TemporaryDirectoryTestCase {
    func testASavedMappingReloadsAndABadOneKeepsTheStubs() throws {
        let mappings = dir.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        let file = mappings.appendingPathComponent("a.json")
        try Data(#"{"request": {"url": "/w"}, "response": {"body": "one"}}"#.utf8).write(to: file)
        let path = dir.path
        let server = try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
        defer { server.stop() }
        let log = LogCapture()
        let watcher = try XCTUnwrap(StubFolderWatcher(store: server.app.stubs, logger: log.logger, interval: 0.01))
        watcher.start()
        defer { watcher.stop() }
        XCTAssertEqual(try server.request("GET", "/w").text, "one")
        try Data(#"{"request": {"url": "/w"}, "response": {"body": "two, longer"}}"#.utf8).write(to: file)
        waitUntil("the reload") { (try? server.request("GET", "/w").text) == "two, longer" }
        try Data(#"{"request": {"url": "/w"}, "response": {"body": "#.utf8).write(to: file)
        waitUntil("the warning") { log.contains("a.json: /: JSON syntax error") }
        XCTAssertEqual(try server.request("GET", "/w").text, "two, longer", "a refused file keeps what it held")
        XCTAssertTrue(log.contains("its file keeps the mappings it had"), "\(log.all)")
        XCTAssertFalse(log.all.contains { $0.contains("\\n") }, "no literal \\n in a reload warning: \(log.all)")
    }

    /// No polling to fall back on (an hour's interval): on Linux each outside change is seen by
    /// inotify alone, at any depth of `mappings` and in a folder made after the start.
    func testEveryOutsideChangeIsSeenWithoutPolling() throws {
        #if os(Linux)
        let mappings = dir.appendingPathComponent("mappings")
        let deep = mappings.appendingPathComponent("team/feature")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let edited = deep.appendingPathComponent("edited.json")
        try Data(#"{"request": {"url": "/e"}, "response": {"body": "one"}}"#.utf8).write(to: edited)
        let removed = mappings.appendingPathComponent("removed.json")
        try Data(#"{"request": {"url": "/r"}, "response": {"body": "r"}}"#.utf8).write(to: removed)
        let path = dir.path
        let server = try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
        defer { server.stop() }
        let log = LogCapture()
        let watcher = try XCTUnwrap(StubFolderWatcher(store: server.app.stubs, logger: log.logger, interval: 3600))
        XCTAssertEqual(watcher.mechanism, "inotify")
        watcher.start()
        defer { watcher.stop() }
        let reloads = Locked(0)
        server.app.stubs.observe { change in if case .reloaded = change { reloads.withLock { $0 += 1 } } }
        XCTAssertEqual(try server.request("GET", "/e").text, "one")

        // In place, the same size: only the time differs.
        let handle = try FileHandle(forWritingTo: edited)
        try handle.write(contentsOf: Data(#"{"request": {"url": "/e"}, "response": {"body": "two"}}"#.utf8))
        try handle.close()
        waitUntil("the edit in place") { (try? server.request("GET", "/e").text) == "two" }

        // Added in a folder made after the start, two levels down.
        let later = mappings.appendingPathComponent("later/inner")
        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        try Data(#"{"request": {"url": "/a"}, "response": {"body": "added"}}"#.utf8).write(to: later.appendingPathComponent("added.json"))
        waitUntil("the added file") { (try? server.request("GET", "/a").text) == "added" }

        try FileManager.default.removeItem(at: removed)
        waitUntil("the removed file") { (try? server.request("GET", "/r").status) == 404 }
        // The observers hear of a reload after its mappings answer: wait for the third to be told.
        waitUntil("three reloads told") { reloads.withLock { $0 } >= 3 }
        XCTAssertFalse(log.contains("mappings not reloaded"), "no half-written file was read: \(log.all)")
        #endif
    }
}

