import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import MockServerAdminClient
import MockServerKit

/// The admin client's stubs against an embedded server over HTTP, and an embedded server started
/// on a mappings folder (what a test bundle's resources hold).
final class AdminClientStubTests: XCTestCase {
    private var server: EmbeddedMockServer?
    private var folder: URL?

    override func tearDown() {
        server?.stop()
        server = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    private func get(_ server: EmbeddedMockServer, _ path: String) async throws -> (status: Int, body: String) {
        let url = try XCTUnwrap(URL(string: server.baseURL.absoluteString + path))
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("client-stubs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        self.folder = folder
        return folder
    }

    /// A mappings folder whose one stub answers `GET /hello` with `body`.
    private func helloFolder(_ body: String = "from the folder") throws -> URL {
        let folder = try makeFolder()
        try Data(#"{"request": {"url": "/hello"}, "response": {"body": "\#(body)"}}"#.utf8)
            .write(to: folder.appendingPathComponent("mappings/hello.json"))
        return folder
    }

    func testAddListCountFindAndRemove() async throws {
        let server = try EmbeddedMockServer()
        self.server = server
        let admin = server.admin
        let stub = try await admin.addStub(MockStubDefinition(name: "flags", request: MockRequestPattern(method: "GET", urlPath: "/flags"),
                                                              response: try .json(["newCheckout": true])))
        XCTAssertEqual(stub.name, "flags")
        let first = try await get(server, "/flags?v=1")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.body, #"{"newCheckout":true}"#)
        let stubs = try await admin.stubs()
        XCTAssertEqual(stubs.map(\.id), [stub.id])
        let count = try await admin.countRequests(matching: MockRequestPattern(method: "GET", urlPath: "/flags"))
        XCTAssertEqual(count, 1)
        let found = try await admin.findRequests(matching: MockRequestPattern(queryParameters: ["v": .equalTo("1")]))
        XCTAssertEqual(found.map(\.url), ["/flags?v=1"])
        try await admin.removeStub(id: stub.id)
        let after = try await get(server, "/flags")
        XCTAssertEqual(after.status, 404)
    }

    func testAMappingFileAndScenarios() async throws {
        let server = try EmbeddedMockServer()
        self.server = server
        let folder = try makeFolder()
        let file = folder.appendingPathComponent("cart.json")
        try Data(#"""
        [{"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full", "request": {"method": "GET", "url": "/cart"}, "response": {"body": "empty"}},
         {"scenarioName": "cart", "requiredScenarioState": "full", "request": {"method": "GET", "url": "/cart"}, "response": {"body": "full"}}]
        """#.utf8).write(to: file)
        try await server.admin.addStubs(contentsOf: file)
        let first = try await get(server, "/cart")
        let second = try await get(server, "/cart")
        XCTAssertEqual([first.body, second.body], ["empty", "full"])
        let scenarios = try await server.admin.stubScenarios()
        XCTAssertEqual(scenarios.map(\.state), ["full"])
        try await server.admin.resetStubScenarios()
        let again = try await get(server, "/cart")
        XCTAssertEqual(again.body, "empty")
    }

    func testARefusedMappingFailsWithTheField() async throws {
        let server = try EmbeddedMockServer()
        self.server = server
        do {
            try await server.admin.addStub(json: Data(#"{"request": {"url": "/x", "bogus": 1}}"#.utf8))
            XCTFail("a mapping with an unknown field was added")
        } catch {
            XCTAssertTrue("\(error)".contains("/request/bogus"), "\(error)")
            XCTAssertTrue("\(error)".contains("(hint: /request/bogus: unknown or unsupported field"), "the server's own sentence too: \(error)")
        }
    }

    func testAnEmbeddedServerStartsOnAMappingsFolder() async throws {
        let folder = try helloFolder()
        let server = try EmbeddedMockServer(mappings: folder)
        self.server = server
        let answer = try await get(server, "/hello")
        XCTAssertEqual(answer.body, "from the folder")
    }

    func testAnEmbeddedServerStartsBesideARefusedMappingAndTheClientListsIt() async throws {
        let folder = try helloFolder()
        try Data(#"{"request": {"url": "/p"}, "response": {"proxyBaseUrl": "ftp://example.com"}}"#.utf8)
            .write(to: folder.appendingPathComponent("mappings/proxy.json"))
        let server = try EmbeddedMockServer(mappings: folder)
        self.server = server
        let answer = try await get(server, "/hello")
        XCTAssertEqual(answer.body, "from the folder")
        let refused = try await server.admin.refusedStubs()
        XCTAssertEqual(refused.map(\.pointer), ["/response/proxyBaseUrl"])
        XCTAssertTrue(refused.first?.file.hasSuffix("mappings/proxy.json") == true, "\(refused)")
    }

    func testRemoveAllStubsRemovesTheFoldersToo() async throws {
        let folder = try helloFolder()
        let server = try EmbeddedMockServer(mappings: folder)
        self.server = server
        try await server.admin.addStub(MockStubDefinition(request: MockRequestPattern(urlPath: "/added"), response: MockStubResponse(body: "added")))
        let before = try await server.admin.stubs()
        XCTAssertEqual(before.count, 2)
        try await server.admin.removeAllStubs()
        let after = try await server.admin.stubs()
        XCTAssertEqual(after, [])
        let hello = try await get(server, "/hello")
        let added = try await get(server, "/added")
        XCTAssertEqual([hello.status, added.status], [404, 404])
    }

    /// Record and playback in a test: a front server proxies what it does not know to an
    /// upstream on loopback, keeps each exchange as a stub, and answers it once the upstream is gone.
    func testAnEmbeddedServerProxiesRecordsAndPlaysBack() async throws {
        let folder = try helloFolder("from the upstream")
        let upstream = try EmbeddedMockServer(mappings: folder)
        defer { upstream.stop() }
        let front = try EmbeddedMockServer(.init(proxyAll: upstream.baseURL, recordMappings: true, outbound: "loopback"))
        self.server = front
        let proxied = try await get(front, "/hello")
        XCTAssertEqual(proxied.status, 200)
        XCTAssertEqual(proxied.body, "from the upstream")
        let recorded = try await front.admin.stubs()
        XCTAssertEqual(recorded.count, 1, "\(recorded)")
        upstream.stop()
        let replayed = try await get(front, "/hello")
        XCTAssertEqual(replayed.status, 200)
        XCTAssertEqual(replayed.body, "from the upstream")
    }

    /// A journal entry kept as a stub through the client answers the same request; the journal
    /// exports as HAR 1.2; an empty id is refused before anything is sent.
    func testKeepAJournalEntryExportHARAndRefuseAnEmptyId() async throws {
        let folder = try helloFolder()
        let server = try EmbeddedMockServer(mappings: folder)
        self.server = server
        _ = try await get(server, "/hello")
        let entries = try await server.admin.requests(path: "/hello")
        let entry = try XCTUnwrap(entries.last)
        let kept = try await server.admin.keepAsStub(journalEntry: entry.id)
        let afterKeep = try await server.admin.stubs()
        XCTAssertEqual(afterKeep.count, 2, "\(kept)")
        let har = try await server.admin.requestsHAR(path: "/hello")
        let log = try XCTUnwrap((try JSONSerialization.jsonObject(with: har) as? [String: Any])?["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertEqual((log["entries"] as? [Any])?.count, 1)
        // The export imported into another server answers the same request from a stub.
        let other = try EmbeddedMockServer()
        defer { other.stop() }
        let made = try await other.admin.importHAR(har)
        XCTAssertEqual(made, 1)
        let replayed = try await get(other, "/hello")
        XCTAssertEqual(replayed.body, "from the folder")
        do {
            try await server.admin.removeStub(id: "")
            XCTFail("an empty id must not be sent: it would name DELETE /__admin/mappings")
        } catch {
            XCTAssertTrue("\(error)".contains(":id is empty"), "\(error)")
        }
        let afterRefusal = try await server.admin.stubs()
        XCTAssertEqual(afterRefusal.count, 2, "nothing removed")
    }

    func testOutboundSettingsAreCheckedAsTheirFlagsAre() throws {
        XCTAssertThrowsError(try EmbeddedMockServer(.init(outbound: "not/a host"))) { error in
            XCTAssertTrue("\(error)".contains("outbound must be all, loopback or a comma-separated list of hosts"), "\(error)")
        }
        XCTAssertThrowsError(try EmbeddedMockServer(.init(proxyAll: URL(string: "ftp://example.com")))) { error in
            XCTAssertTrue("\(error)".hasPrefix("proxyAll: "), "\(error)")
        }
        XCTAssertThrowsError(try EmbeddedMockServer(.init(proxyCAFile: "/nonexistent/ca.pem"))) { error in
            XCTAssertTrue("\(error)".contains("no readable file"), "\(error)")
        }
        let folder = try makeFolder()
        let empty = folder.appendingPathComponent("empty.pem").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertThrowsError(try EmbeddedMockServer(.init(proxyCAFile: empty))) { error in
            XCTAssertTrue("\(error)".hasPrefix("proxyCAFile \(empty): it holds no certificate"), "\(error)")
        }
        XCTAssertThrowsError(try EmbeddedMockServer(.init(useChunkedEncoding: "sometimes"))) { error in
            XCTAssertTrue("\(error)".contains("useChunkedEncoding must be always, never or body_file"), "\(error)")
        }
    }

    func testSavedStubsAreInTheFolderAndLoadAtTheNextStart() async throws {
        let folder = try makeFolder()
        let first = try EmbeddedMockServer(mappings: folder)
        self.server = first
        try await first.admin.addStub(MockStubDefinition(name: "saved", request: MockRequestPattern(urlPath: "/saved"), response: MockStubResponse(body: "kept")))
        try await first.admin.saveStubs()
        first.stop()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path).filter { $0.hasPrefix("saved-") }.count, 1)
        let second = try EmbeddedMockServer(mappings: folder)
        self.server = second
        let answer = try await get(second, "/saved")
        XCTAssertEqual(answer.body, "kept")
    }

    func testSaveWithoutAFolderFails() async throws {
        let server = try EmbeddedMockServer()
        self.server = server
        do {
            try await server.admin.saveStubs()
            XCTFail("saved without a folder")
        } catch {
            XCTAssertTrue("\(error)".contains("409"), "\(error)")
        }
    }
}
