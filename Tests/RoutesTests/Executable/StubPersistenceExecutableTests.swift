import Foundation
import XCTest
import MockTestSupport
import TestSupport

/// `persistent: true` on the real executable: a mapping answered 201 is in the `--mappings`
/// folder at that moment, so a SIGKILL right after the answer and a restart find it; a DELETE
/// answered 200 is as final.
final class StubPersistenceExecutableTests: TemporaryDirectoryTestCase {
    private func launch() throws -> (TestExecutable, Int) {
        let server = try TestExecutable(["--port", "0", "--mappings", dir.path, "--log-level", "warning"])
        return (server, try server.bannerPort())
    }

    private func request(_ port: Int, _ method: String, _ path: String, body: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest(method, path, headers: method == "GET" ? [] : [("Content-Type", "application/json")], body: Array(body.utf8))
        return try client.readResponse()
    }

    func testAPersistentStubSurvivesAKillAtItsAnswerAndItsDeleteToo() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        let id = "3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f"
        var (server, port) = try launch()
        let created = try request(port, "POST", "/__admin/mappings",
                                  body: #"{"id": "\#(id)", "persistent": true, "request": {"urlPath": "/config"}, "response": {"status": 200, "body": "durable"}}"#)
        server.stopNow()   // SIGKILL at once: the answer is all the client knows
        XCTAssertEqual(created.status, 201, created.text)

        (server, port) = try launch()
        XCTAssertEqual(try request(port, "GET", "/config").text, "durable", "answered 201, so it is there after SIGKILL and a restart")
        let removed = try request(port, "DELETE", "/__admin/mappings/\(id)")
        server.stopNow()
        XCTAssertEqual(removed.status, 200, removed.text)

        (server, port) = try launch()
        defer { server.stopNow() }
        XCTAssertEqual(try request(port, "GET", "/config").status, 404, "answered 200 to the DELETE, so it stays gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("mappings").path), [])
    }

    func testSavedStubsAreLoadedByTheNextStart() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        var (server, port) = try launch()
        XCTAssertEqual(try request(port, "POST", "/__admin/mappings", body: #"{"name": "saved later", "request": {"url": "/later"}, "response": {"body": "kept"}}"#).status, 201)
        let saved = try request(port, "POST", "/__admin/mappings/save")
        server.stopNow()
        XCTAssertEqual(saved.status, 200, saved.text)
        (server, port) = try launch()
        defer { server.stopNow() }
        XCTAssertEqual(try request(port, "GET", "/later").text, "kept")
        let list = try request(port, "GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]] ?? []
        XCTAssertEqual(list.count, 1, "one copy")
        XCTAssertEqual(list.first?["persistent"] as? Bool, true)
    }
}
