import Dispatch
import EmulationKit
import Foundation
import HTTPServer
import MockTestSupport
import Routes
import Stubs
import TestSupport
import XCTest

/// Answered means on disk and served, for stubs too: every answered change of `persistent`
/// mappings is in the `--mappings` folder and is what a restart serves, and nothing of a refused
/// one is, in memory or on disk (reliability-3 S4–S7).
final class StubAnsweredOnDiskTests: TemporaryDirectoryTestCase {
    private var mappings: URL { dir.appendingPathComponent("mappings") }
    private let idX = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
    private let idA = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a"
    private let idB = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    }

    /// A server on the folder; a folder that does not load fails the test (as the start would exit 65).
    private func start() throws -> TestServer {
        let store = try StubLoading.store(root: dir.path, clock: ManualClock())
        return try TestServer(stubs: { _ in store })
    }

    private func files(under folder: URL? = nil) throws -> [String] {
        let root = folder ?? mappings
        return (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    private func ids(_ server: TestServer) throws -> [String] {
        let list = try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []
        return list.compactMap { $0["id"] as? String }.sorted()
    }

    private func persistent(_ id: String, name: String, path: String, body: String, status: String = "200") -> String {
        #"{"id": "\#(id)", "name": "\#(name)", "persistent": true, "request": {"urlPath": "\#(path)"}, "response": {"status": \#(status), "body": "\#(body)"}}"#
    }

    // MARK: - S4

    func testAnIdWrittenAgainAfterDeleteAllReusesItsFile() throws {
        var server = try start()
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: persistent(idX, name: "first", path: "/x", body: "first")).status, 201)
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try files(), ["first-\(idX).json"], "DELETE all keeps the folder's files")
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: persistent(idX, name: "second", path: "/x", body: "second")).status, 201)
        XCTAssertEqual(try files(), ["first-\(idX).json"], "the id's own file, not a second one")
        server.stop()

        server = try start()
        defer { server.stop() }
        XCTAssertEqual(try ids(server), [idX])
        XCTAssertEqual(try server.request("GET", "/x").text, "second")
    }

    func testAnIdLoadedFromASubfolderIsWrittenBackThereAfterDeleteAll() throws {
        let sub = mappings.appendingPathComponent("feature")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(persistent(idX, name: "old", path: "/x", body: "old").utf8).write(to: sub.appendingPathComponent("any-name.json"))
        var server = try start()
        XCTAssertEqual(try server.request("DELETE", "/__admin/mappings", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: persistent(idX, name: "new", path: "/x", body: "new")).status, 201)
        XCTAssertEqual(try files(), ["feature/any-name.json"])
        server.stop()

        server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/x").text, "new")
    }

    // MARK: - S5

    func testARefusedImportThatDeletesAllChangesNothing() throws {
        var server = try start()
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: persistent(idX, name: "keep", path: "/keep", body: "kept")).status, 201)
        let before = try files()

        let bad = #"{"mappings": [{"request": {"urlPath": "/new"}, "response": {"status": "bad"}}], "importOptions": {"deleteAllNotInImport": true}}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: bad).status, 422)
        XCTAssertEqual(try server.request("GET", "/keep").text, "kept")
        XCTAssertEqual(try ids(server), [idX])

        // The folder refuses the import's file (it is a file now): 503, and nothing removed.
        let moved = dir.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: mappings, to: moved)
        try Data("not a folder".utf8).write(to: mappings)
        let refused = #"{"mappings": [\#(persistent(idA, name: "a", path: "/a", body: "a"))], "importOptions": {"deleteAllNotInImport": true}}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: refused).status, 503)
        XCTAssertEqual(try server.request("GET", "/keep").text, "kept")
        XCTAssertEqual(try server.request("GET", "/a").status, 404)
        XCTAssertEqual(try ids(server), [idX])
        try FileManager.default.removeItem(at: mappings)
        try FileManager.default.moveItem(at: moved, to: mappings)
        XCTAssertEqual(try files(), before)

        // Taken: the import's mappings only, in memory; the folder's files stay (as for DELETE all).
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: refused).status, 200)
        XCTAssertEqual(try ids(server), [idA])
        XCTAssertEqual(try server.request("GET", "/keep").status, 404)
        server.stop()

        server = try start()
        defer { server.stop() }
        XCTAssertEqual(try ids(server), [idX, idA].sorted())
    }

    // MARK: - S6

    /// Creates race a reset that reads a big folder: each created stub answered 201 is served once
    /// both answers are in, whichever came first.
    func testAPersistentCreateAnsweredDuringAResetIsServedAfterIt() throws {
        for i in 0..<800 {
            try Data(#"{"request": {"url": "/bulk/\#(i)"}, "response": {"body": "\#(i)"}}"#.utf8)
                .write(to: mappings.appendingPathComponent("bulk-\(i).json"))
        }
        let server = try start()
        defer { server.stop() }
        for round in 0..<2 {
            let resetDone = Locked(false)
            let created = Locked<[String]>([])
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                var n = 0
                while !resetDone.withLock({ $0 }) || n < 2 {
                    let path = "/made/\(round)/\(n)"
                    let mapping = #"{"persistent": true, "request": {"url": "\#(path)"}, "response": {"body": "made"}}"#
                    if (try? server.request("POST", "/__admin/mappings", jsonText: mapping))?.status == 201 { created.withLock { $0.append(path) } }
                    n += 1
                }
            }
            // Started once the first create is in, so the reset overlaps the stream of creates.
            waitUntil("the first create") { !created.withLock { $0 }.isEmpty }
            XCTAssertEqual(try server.request("POST", "/__admin/mappings/reset", headers: TestServer.adminWrite).status, 200)
            resetDone.withLock { $0 = true }
            XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
            for path in created.withLock({ $0 }) {
                XCTAssertEqual(try server.request("GET", path).text, "made", "\(path), answered 201, is served")
            }
        }
    }

    // MARK: - S7

    func testARenameFailingMidCommitLeavesNothingOfTheChange() throws {
        var server = try start()
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: persistent(idA, name: "alpha", path: "/alpha", body: "old")).status, 201)
        let alphaFile = mappings.appendingPathComponent("alpha-\(idA).json")
        let alphaBefore = try Data(contentsOf: alphaFile)
        // A directory squats on the name beta's file would take.
        try FileManager.default.createDirectory(at: mappings.appendingPathComponent("beta-\(idB).json"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mappings.appendingPathComponent("gamma-\(idX).json"), withIntermediateDirectories: true)

        // alpha (changed) and a new one are renamed into place before beta's rename fails.
        let newOne = "4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b7c"
        let importing = #"{"mappings": [\#(persistent(idA, name: "alpha", path: "/alpha", body: "new")), \#(persistent(newOne, name: "delta", path: "/delta", body: "d")), \#(persistent(idB, name: "beta", path: "/beta", body: "b"))]}"#
        let refused = try server.request("POST", "/__admin/mappings/import", jsonText: importing)
        XCTAssertEqual(refused.status, 503, refused.text)
        // Refused at a file before the last (its old version cannot be kept): the same.
        let earlier = #"{"mappings": [\#(persistent(newOne, name: "delta", path: "/delta", body: "d")), \#(persistent(idX, name: "gamma", path: "/gamma", body: "g")), \#(persistent(idA, name: "alpha", path: "/alpha", body: "new"))]}"#
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/import", jsonText: earlier).status, 503)

        XCTAssertEqual(try server.request("GET", "/alpha").text, "old")
        XCTAssertEqual(try server.request("GET", "/delta").status, 404)
        XCTAssertEqual(try Data(contentsOf: alphaFile), alphaBefore, "alpha's file is back as it was")
        let names = try FileManager.default.contentsOfDirectory(atPath: mappings.path).sorted()
        XCTAssertEqual(names, ["alpha-\(idA).json", "beta-\(idB).json", "gamma-\(idX).json"], "no new file, no temporary file left")
        server.stop()

        try FileManager.default.removeItem(at: mappings.appendingPathComponent("beta-\(idB).json"))
        try FileManager.default.removeItem(at: mappings.appendingPathComponent("gamma-\(idX).json"))
        server = try start()
        defer { server.stop() }
        XCTAssertEqual(try ids(server), [idA])
        XCTAssertEqual(try server.request("GET", "/alpha").text, "old")
    }
}
