import Foundation
import HTTPServer
import MockTestSupport
import Routes
import Stubs
import TestSupport
import XCTest
import EmulationKit

/// `persistent: true` and `POST /__admin/mappings/save` under `--mappings DIR`, over real sockets:
/// what is answered is in the folder, a DELETE removes the file, a folder that does not take the
/// file changes nothing, and the server's own writes under `--watch` reload nothing.
final class StubPersistenceTests: TemporaryDirectoryTestCase {
    private var mappings: URL { dir.appendingPathComponent("mappings") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    }

    private func start(folder: Bool = true) throws -> TestServer {
        let path = dir.path
        return try TestServer(stubs: { clock in
            folder ? try? StubLoading.store(root: path, clock: clock) : nil
        })
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mappings.path).sorted()
    }

    private func mappingIds(_ server: TestServer) throws -> [String] {
        let list = try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []
        return list.compactMap { $0["id"] as? String }
    }

    func testAPersistentMappingIsInItsFileWhenAnsweredAndADeleteRemovesIt() throws {
        let server = try start()
        defer { server.stop() }
        let id = "0b7e6b4a-3c2d-4f4e-9a51-8d2f7c1e0a11"
        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"id": "\#(id)", "name": "Feature Flags!", "persistent": true, "request": {"urlPath": "/flags"}, "response": {"body": "on"}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertNil(created.header("X-Mock-Hint"))
        // WireMock's name: the mapping's name made safe, then the id.
        XCTAssertEqual(try files(), ["feature-flags-\(id).json"])
        let text = try String(contentsOf: mappings.appendingPathComponent("feature-flags-\(id).json"), encoding: .utf8)
        let written = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(written["id"] as? String, id)
        XCTAssertEqual(written["persistent"] as? Bool, true)
        XCTAssertEqual((written["request"] as? [String: Any])?["urlPath"] as? String, "/flags")
        XCTAssertEqual(try server.request("GET", "/flags").text, "on")

        // A persisted stub is a folder stub: the end of a test (POST /__mock/reset) keeps it.
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/flags").text, "on")

        // An edit with persistent: true rewrites the same file.
        let edited = try server.request("PUT", "/__admin/mappings/\(id)", jsonText: #"{"name": "renamed", "persistent": true, "request": {"urlPath": "/flags"}, "response": {"body": "off"}}"#)
        XCTAssertEqual(edited.status, 200, edited.text)
        XCTAssertEqual(try files(), ["feature-flags-\(id).json"])
        XCTAssertTrue(try String(contentsOf: mappings.appendingPathComponent("feature-flags-\(id).json"), encoding: .utf8).contains("\"off\""))

        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings/\(id)", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try files(), [], "the DELETE of a persistent mapping removes its file")
        XCTAssertEqual(try server.request("GET", "/flags").status, 404)
    }

    func testAMappingWithoutAFolderIsKeptInMemoryAndTheAnswerSaysSo() throws {
        let server = try start(folder: false)
        defer { server.stop() }
        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"persistent": true, "request": {"url": "/memory"}, "response": {"body": "m"}}"#)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.header("X-Mock-Hint"), StubStore.notSavedHint)
        XCTAssertEqual(try server.request("GET", "/memory").text, "m")
        let save = try server.request("POST", "/__admin/mappings/save", headers: TestServer.adminWrite)
        XCTAssertEqual(save.status, 409, save.text)
        XCTAssertTrue(save.header("X-Mock-Hint")?.contains("--mappings DIR") == true, save.text)
    }

    func testSaveWritesEveryHTTPAddedMappingOnceAndMarksItPersistent() throws {
        try Data(#"{"request": {"url": "/from-file"}, "response": {"body": "f"}}"#.utf8).write(to: mappings.appendingPathComponent("own.json"))
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPath": "/api/one"}, "response": {"body": "1"}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"method": "ANY"}, "response": {"body": "any"}}"#).status, 201)
        XCTAssertEqual(try files(), ["own.json"], "not persistent: memory only until saved")
        let ids = try mappingIds(server)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/save", headers: TestServer.adminWrite).status, 200)
        let saved = try files()
        XCTAssertEqual(saved.count, 3, "\(saved)")
        XCTAssertTrue(saved.contains("own.json"), "the folder's own file is left as it is")
        XCTAssertTrue(saved.contains { $0.hasPrefix("apione-") }, "named from the URL as WireMock does: \(saved)")
        XCTAssertTrue(saved.contains { $0 == "\(ids[0]).json" }, "no name and no URL: the id: \(saved)")
        let listed = try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []
        XCTAssertEqual(listed.filter { $0["persistent"] as? Bool == true }.count, 2)
        // A second save has nothing left to write.
        let before = try saved.map { try FileManager.default.attributesOfItem(atPath: mappings.appendingPathComponent($0).path)[.modificationDate] as? Date }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/save", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try files(), saved)
        XCTAssertEqual(try saved.map { try FileManager.default.attributesOfItem(atPath: mappings.appendingPathComponent($0).path)[.modificationDate] as? Date }, before)
    }

    /// The folder is a file now (as root, a read-only mode would not stop a write): every write
    /// fails, and the answer says so with nothing changed.
    func testAFolderThatDoesNotTakeTheFileChangesNothing() throws {
        let server = try start()
        defer { server.stop() }
        let id = "5e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b"
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"id": "\#(id)", "persistent": true, "request": {"url": "/kept"}, "response": {"body": "k"}}"#).status, 201)
        try FileManager.default.moveItem(at: mappings, to: dir.appendingPathComponent("moved"))
        try Data("not a folder".utf8).write(to: mappings)

        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"persistent": true, "request": {"url": "/lost"}, "response": {"body": "l"}}"#)
        XCTAssertEqual(created.status, 503, created.text)
        XCTAssertTrue(created.header("X-Mock-Hint")?.contains("nothing changed") == true, created.text)
        XCTAssertEqual(try server.request("GET", "/lost").status, 404, "no stub was added")

        let imported = try server.request("POST", "/__admin/mappings/import", jsonText: #"{"mappings": [{"request": {"url": "/a"}}, {"persistent": true, "request": {"url": "/b"}}]}"#)
        XCTAssertEqual(imported.status, 503, imported.text)
        XCTAssertEqual(try server.request("GET", "/a").status, 404, "an import is all or none")

        let edited = try server.request("PUT", "/__admin/mappings/\(id)", jsonText: #"{"persistent": true, "request": {"url": "/kept"}, "response": {"body": "changed"}}"#)
        XCTAssertEqual(edited.status, 503, edited.text)
        XCTAssertEqual(try server.request("GET", "/kept").text, "k", "the stub is as it was")

        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/plain"}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/save", headers: TestServer.adminWrite).status, 503)
        XCTAssertEqual((try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]])?.first?["persistent"] as? Bool, nil,
                       "a failed save marks nothing")
        XCTAssertEqual(try mappingIds(server).count, 2)
    }

    func testAMappingFromAFileOfSeveralIsReadOnly() throws {
        let id = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
        try Data(#"{"mappings": [{"id": "\#(id)", "persistent": true, "request": {"url": "/multi"}, "response": {"body": "m"}}, {"request": {"url": "/other"}}]}"#.utf8)
            .write(to: mappings.appendingPathComponent("several.json"))
        let server = try start()
        defer { server.stop() }
        let removed = try server.request("DELETE", "/__admin/mappings/\(id)", headers: TestServer.adminWrite)
        XCTAssertEqual(removed.status, 409, removed.text)
        XCTAssertTrue(removed.header("X-Mock-Hint")?.contains("several.json") == true, removed.text)
        XCTAssertEqual(try server.request("GET", "/multi").text, "m")
        XCTAssertEqual(try files(), ["several.json"])
    }

    /// Under `--watch` the server's own write is seen by the poller, and the reload it causes
    /// changes nothing: no second copy, no new place among equal priorities, no reload reported.
    func testTheServersOwnWritesUnderWatchReloadNothing() throws {
        let server = try start()
        defer { server.stop() }
        let log = LogCapture()
        let watcher = try XCTUnwrap(StubFolderWatcher(store: server.app.stubs, logger: log.logger, interval: 0.005))
        watcher.start()
        defer { watcher.stop() }
        let observed = Locked(0)
        server.app.stubs.observe { change in if case .reloaded = change { observed.withLock { $0 += 1 } } }
        // The persistent one first, then one in memory on the same path: the newer one answers.
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"persistent": true, "request": {"url": "/same"}, "response": {"body": "persisted"}}"#).status, 201)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/same"}, "response": {"body": "newer"}}"#).status, 201)
        // A file of the user's, after the server's: once the poller has loaded it, it has seen the server's too.
        try Data(#"{"request": {"url": "/marker"}, "response": {"body": "seen"}}"#.utf8).write(to: mappings.appendingPathComponent("marker.json"), options: .atomic)
        waitUntil("the marker's reload") { (try? server.request("GET", "/marker").text) == "seen" }
        let reloads = observed.withLock { $0 }
        XCTAssertEqual(try mappingIds(server).count, 3, "no stub twice")
        XCTAssertEqual(try server.request("GET", "/same").text, "newer", "the persisted stub kept its place")
        XCTAssertEqual(reloads, 1, "only the user's file is a change")
    }

    func testTheJournalShowsThePeerAsClientIp() throws {
        let server = try start(folder: false)
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/nothing-here").status, 404)
        let events = try server.request("GET", "/__admin/requests").jsonObject?["requests"] as? [[String: Any]] ?? []
        XCTAssertEqual((events.first?["request"] as? [String: Any])?["clientIp"] as? String, "127.0.0.1")
        let entries = try server.request("GET", "/__mock/requests").jsonArray as? [[String: Any]] ?? []
        XCTAssertEqual(entries.last?["clientIp"] as? String, "127.0.0.1")
    }
}
