import Foundation
import HTTPServer
import MockTestSupport
import Routes
import Stubs
import TestSupport
import XCTest
import EmulationKit

/// A persistent mapping's new file and a file already in `DIR/mappings` whose name differs only in
/// case are one file on a Mac's default volume: the server writes to the name as the folder
/// spells it, so Linux ends with one file too (a second file with the same id would stop the next start).
final class StubPersistenceCaseTests: TemporaryDirectoryTestCase {
    private var mappings: URL { dir.appendingPathComponent("mappings") }
    private let id = "0b7e6b4a-3c2d-4f4e-9a51-8d2f7c1e0a11"
    private let other = "5f0c2e1d-7a44-4b1e-8c3a-2d9e6f7a8b90"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
    }

    private func start() throws -> TestServer {
        let path = dir.path
        return try TestServer(stubs: { clock in
            try? StubLoading.store(root: path, clock: clock)
        })
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mappings.path).sorted()
    }

    private func mapping(_ id: String, body: String) -> String {
        #"{"id": "\#(id)", "name": "Flags", "persistent": true, "request": {"urlPath": "/flags"}, "response": {"body": "\#(body)"}}"#
    }

    func testAFileInAnotherCaseIsReplacedNotJoinedByASecond() throws {
        let server = try start()
        defer { server.stop() }
        // Copied in after the start (no --watch): the server has not loaded it.
        let copied = "Flags-\(id.uppercased()).json"
        try Data(mapping(id, body: "old").utf8).write(to: mappings.appendingPathComponent(copied))

        let created = try server.request("POST", "/__admin/mappings", jsonText: mapping(id, body: "new"))
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(try files(), [copied], "one file, spelled as the folder had it")
        XCTAssertTrue(try String(contentsOf: mappings.appendingPathComponent(copied), encoding: .utf8).contains("\"new\""))
        XCTAssertEqual(try StubFiles(root: dir.path).load().map(\.id), [id], "the folder loads at the next start")
    }

    func testAFileOfAnotherMappingIsNotOverwritten() throws {
        // Named for `id`, holding `other`: writing `id` there would lose `other`.
        let misnamed = "flags-\(id).json"
        try Data(mapping(other, body: "other").utf8).write(to: mappings.appendingPathComponent(misnamed))
        let server = try start()
        defer { server.stop() }

        let created = try server.request("POST", "/__admin/mappings", jsonText: mapping(id, body: "new"))
        XCTAssertEqual(created.status, 409, created.text)
        XCTAssertTrue(created.header("X-Mock-Hint")?.contains("holds mapping \(other)") == true, created.text)
        XCTAssertEqual(try files(), [misnamed])
        XCTAssertTrue(try String(contentsOf: mappings.appendingPathComponent(misnamed), encoding: .utf8).contains("\"other\""))
        XCTAssertEqual(try server.request("GET", "/flags").text, "other", "nothing changed")
    }
}
