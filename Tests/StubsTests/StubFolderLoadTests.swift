import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// A `--mappings` folder loads per mapping: the refused ones are listed (file, pointer, reason) and
/// the rest serve, at every level of subfolders, in WireMock's walk order; a duplicate id loads
/// twice; a reset after a bad edit keeps that file's earlier mappings.
final class StubFolderLoadTests: TemporaryDirectoryTestCase {
    private func write(_ text: String, to path: String) throws {
        let url = dir.appendingPathComponent("mappings/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func start() throws -> TestServer {
        let path = dir.path
        return try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
    }

    private func refused(_ server: TestServer) throws -> [[String: Any]] {
        try XCTUnwrap(try server.request("GET", "/__admin/mappings/refused").jsonObject?["refused"] as? [[String: Any]])
    }

    func testThreeGoodAndTwoRefusedTwoLevelsDeepServeTheGoodAndListTheRefused() throws {
        try write(#"{"request": {"url": "/top"}, "response": {"body": "top"}}"#, to: "top.json")
        try write(#"{"request": {"url": "/one"}, "response": {"body": "one"}}"#, to: "a/one.json")
        try write(#"{"request": {"url": "/deep"}, "response": {"body": "deep"}}"#, to: "a/b/deep.json")
        try write(#"{"request": {"url": "/p"}, "response": {"proxyBaseUrl": "ftp://example.com"}}"#, to: "a/b/proxy.json")
        try write(#"{"request": {"url": "/cut"}"#, to: "a/cut.json")
        let server = try start()
        defer { server.stop() }
        for path in ["/top", "/one", "/deep"] { XCTAssertEqual(try server.request("GET", path).text, String(path.dropFirst())) }
        XCTAssertEqual(try server.request("GET", "/p").status, 404)
        let list = try refused(server)
        XCTAssertEqual(list.map { ($0["file"] as? String ?? "").replacingOccurrences(of: dir.path, with: "") },
                       ["/mappings/a/b/proxy.json", "/mappings/a/cut.json"])
        XCTAssertEqual(list.map { $0["pointer"] as? String }, ["/response/proxyBaseUrl", "/"])
        XCTAssertTrue((list.last?["reason"] as? String ?? "").contains("expected `,` or `}`"), "\(list)")
        XCTAssertEqual(try server.request("GET", "/__admin/mappings").jsonObject?["meta"] as? [String: Int], ["total": 3])
    }

    func testTheWalkOrderBreaksEqualPriorityTies() throws {
        // Name order per folder, a subfolder's files in its place: a/x.json, b/deep/x.json, b.json.
        try write(#"{"name": "b.json", "request": {"url": "/tie"}, "response": {"body": "b.json"}}"#, to: "b.json")
        try write(#"{"name": "b/deep/x.json", "request": {"url": "/tie"}, "response": {"body": "b/deep"}}"#, to: "b/deep/x.json")
        try write(#"{"name": "a/x.json", "request": {"url": "/tie"}, "response": {"body": "a"}}"#, to: "a/x.json")
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/tie").text, "b.json", "the last loaded wins a tie")
        let names = (try server.request("GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
        XCTAssertEqual(names, ["b.json", "b/deep/x.json", "a/x.json"], "newest (last loaded) first")
    }

    func testAnIdInTwoFilesLoadsBothAndTheLaterKeepsIt() throws {
        let id = "f795693a-a02a-3135-82d2-47683ee806a4"
        try write(#"{"id": "\#(id)", "request": {"url": "/first"}, "response": {"body": "first"}}"#, to: "one/s.json")
        try write(#"{"id": "\#(id)", "request": {"url": "/second"}, "response": {"body": "second"}}"#, to: "two/s.json")
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/first").text, "first")
        XCTAssertEqual(try server.request("GET", "/second").text, "second")
        let mapping = try server.request("GET", "/__admin/mappings/\(id)").jsonObject
        XCTAssertEqual((mapping?["request"] as? [String: Any])?["url"] as? String, "/second", "the later in load order keeps the id")
        let warnings = try XCTUnwrap(try server.request("GET", "/__admin/mappings/refused").jsonObject?["warnings"] as? [String])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("one/s.json") && warnings[0].contains("two/s.json"), warnings[0])
        XCTAssertTrue(try refused(server).isEmpty)
    }

    func testAResetAfterABadEditKeepsTheFilesEarlierMappings() throws {
        try write(#"{"request": {"url": "/kept"}, "response": {"body": "before"}}"#, to: "kept.json")
        try write(#"{"request": {"url": "/other"}, "response": {"body": "other"}}"#, to: "other.json")
        let server = try start()
        defer { server.stop() }
        try write(#"{"request": {"url": "/kept"}, "response": {"body": "after"}, "postServeActions": [{"name": "email"}]}"#, to: "kept.json")
        try write(#"{"request": {"url": "/other"}, "response": {"body": "other, edited"}}"#, to: "other.json")
        XCTAssertEqual(try server.request("POST", "/__admin/mappings/reset", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.request("GET", "/kept").text, "before", "a refused file keeps what it held")
        XCTAssertEqual(try server.request("GET", "/other").text, "other, edited", "the other files reload")
        XCTAssertEqual(try refused(server).map { $0["pointer"] as? String }, ["/postServeActions/0/name"])
    }

    func testAMissingBodyFileIsAWarningAtLoad() throws {
        try write(#"{"request": {"url": "/f"}, "response": {"bodyFileName": "nowhere.json"}}"#, to: "f.json")
        let server = try start()
        defer { server.stop() }
        let warnings = try server.request("GET", "/__admin/mappings/refused").jsonObject?["warnings"] as? [String] ?? []
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("f.json: /response/bodyFileName: bodyFileName nowhere.json: no such file in __files") == true, "\(warnings)")
    }
}
