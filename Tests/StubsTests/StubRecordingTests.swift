import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// WireMock's recorder (`/__admin/recordings/*`) against an upstream the test starts on
/// 127.0.0.1, through the real server: what is recorded, how it is written, and that it replays
/// from the folder after a restart with the upstream gone.
final class StubRecordingTests: TemporaryDirectoryTestCase {
    private var upstream: LoopbackUpstream?
    private var mappingsDir: URL { dir.appendingPathComponent("mappings") }
    private var filesDir: URL { dir.appendingPathComponent("__files") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: mappingsDir, withIntermediateDirectories: true)
        // Each path answers as a small backend would; /counter counts its calls.
        let counter = Counter()
        upstream = try LoopbackUpstream { seen in
            let path = String(seen.requestLine.split(separator: " ")[1].split(separator: "?")[0])
            switch path {
            case "/api/users":
                return .send(LoopbackUpstream.response("200 OK", [("Content-Type", "application/json"), ("X-Up", "u")], body: Array(#"{"users":[1,2]}"#.utf8)))
            case "/counter":
                return .send(LoopbackUpstream.response("200 OK", [("Content-Type", "text/plain")], body: Array("n=\(counter.next())".utf8)))
            case "/bin":
                return .send(LoopbackUpstream.response("200 OK", [("Content-Type", "application/octet-stream")], body: [0, 1, 2, 0xFF, 0xFE]))
            case "/big":
                return .send(LoopbackUpstream.response("200 OK", [("Content-Type", "text/plain")], body: Array(String(repeating: "abcd", count: 100).utf8)))
            default:
                return .send(LoopbackUpstream.response("404 Not Found", [("Content-Type", "text/plain")], body: Array("upstream: no \(path)".utf8)))
            }
        }
    }

    override func tearDown() {
        upstream?.stop()
        upstream = nil
        super.tearDown()
    }

    private var target: String { "http://127.0.0.1:\(upstream?.port ?? 0)" }

    private func start() throws -> TestServer {
        let path = dir.path
        return try TestServer(stubs: { clock in try StubLoading.store(root: path, clock: clock) })
    }

    private func mappings(_ response: TestResponse) throws -> [[String: Any]] {
        try XCTUnwrap(response.jsonObject?["mappings"] as? [[String: Any]], response.text)
    }

    private func status(_ server: TestServer) throws -> String? {
        try server.request("GET", "/__admin/recordings/status").jsonObject?["status"] as? String
    }

    func testARecordingIsWrittenAsWireMockWritesItAndReplaysAfterARestart() throws {
        let server = try start()
        XCTAssertEqual(try status(server), "NeverStarted")
        let started = try server.request("POST", "/__admin/recordings/start", jsonText: #"{"targetBaseUrl": "\#(target)", "captureHeaders": {"X-Trace": {}}}"#)
        XCTAssertEqual(started.status, 200, started.text)
        XCTAssertEqual(try status(server), "Recording")

        let got = try server.request("GET", "/api/users", headers: [("X-Trace", "t1"), ("Authorization", "Bearer secret"), ("Cookie", "s=1")])
        XCTAssertEqual(got.status, 200)
        XCTAssertEqual(got.text, #"{"users":[1,2]}"#)
        let posted = try server.request("POST", "/api/users?x=1", headers: [("Content-Type", "application/json")], body: Array(#"{"name": "a"}"#.utf8))
        XCTAssertEqual(posted.status, 200)
        // Neither an admin path nor a system's own route goes upstream or into the recording.
        XCTAssertEqual(try server.request("GET", "/__admin/mappings").status, 200)
        XCTAssertNotEqual(try server.request("POST", "/auth/login", jsonText: "{}").status, 0)
        XCTAssertEqual(upstream?.requests.count, 2, "only the two unknown paths went upstream")

        let stopped = try server.request("POST", "/__admin/recordings/stop")
        XCTAssertEqual(stopped.status, 200, stopped.text)
        XCTAssertEqual(try status(server), "Stopped")
        let recorded = try mappings(stopped)
        XCTAssertEqual(recorded.count, 2)
        let first = recorded[0], second = recorded[1]
        XCTAssertEqual(first["name"] as? String, "api_users")
        let request = try XCTUnwrap(first["request"] as? [String: Any])
        XCTAssertEqual(request["url"] as? String, "/api/users")
        XCTAssertEqual(request["method"] as? String, "GET")
        let headers = try XCTUnwrap(request["headers"] as? [String: Any])
        XCTAssertEqual(Array(headers.keys), ["X-Trace"], "Authorization and Cookie are not captured unless named")
        XCTAssertEqual((headers["X-Trace"] as? [String: Any])?["equalTo"] as? String, "t1")
        let response = try XCTUnwrap(first["response"] as? [String: Any])
        XCTAssertEqual(response["status"] as? Int, 200)
        XCTAssertEqual(response["body"] as? String, #"{"users":[1,2]}"#)
        let responseHeaders = try XCTUnwrap(response["headers"] as? [String: Any])
        XCTAssertEqual(responseHeaders["X-Up"] as? String, "u")
        XCTAssertNil(responseHeaders["Content-Length"], "Content-Length is the server's to write")
        XCTAssertEqual(first["persistent"] as? Bool, true)
        let secondRequest = try XCTUnwrap(second["request"] as? [String: Any])
        XCTAssertEqual(secondRequest["url"] as? String, "/api/users?x=1")
        let bodyPattern = try XCTUnwrap((secondRequest["bodyPatterns"] as? [[String: Any]])?.first)
        XCTAssertEqual(bodyPattern["equalToJson"] as? String, #"{"name": "a"}"#)
        XCTAssertEqual(bodyPattern["ignoreExtraElements"] as? Bool, true)
        let id = try XCTUnwrap(first["id"] as? String)
        let files = try FileManager.default.contentsOfDirectory(atPath: mappingsDir.path).sorted()
        XCTAssertEqual(files.count, 2)
        XCTAssertTrue(files.contains("api_users-\(id).json"), "\(files)")
        server.stop()

        // The upstream gone, a new server on the folder answers what was recorded.
        upstream?.stop()
        let again = try start()
        defer { again.stop() }
        let replayed = try again.request("GET", "/api/users", headers: [("X-Trace", "t1")])
        XCTAssertEqual(replayed.status, 200, replayed.text)
        XCTAssertEqual(replayed.text, #"{"users":[1,2]}"#)
        XCTAssertEqual(replayed.header("X-Up"), "u")
        let posted2 = try again.request("POST", "/api/users?x=1", headers: [("Content-Type", "application/json")], body: Array(#"{"name":"a"}"#.utf8))
        XCTAssertEqual(posted2.text, #"{"users":[1,2]}"#)
        XCTAssertEqual(try status(again), "NeverStarted")
    }

    func testRepeatsBecomeAScenarioInTheOrderTheyCame() throws {
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/recordings/start", jsonText: #"{"targetBaseUrl": "\#(target)", "persist": false}"#).status, 200)
        for n in 1...3 { XCTAssertEqual(try server.request("GET", "/counter").text, "n=\(n)") }
        let recorded = try mappings(try server.request("POST", "/__admin/recordings/stop"))
        XCTAssertEqual(recorded.count, 3)
        XCTAssertEqual(recorded.map { $0["scenarioName"] as? String }, Array(repeating: "scenario-1-counter", count: 3))
        XCTAssertEqual(recorded.map { $0["requiredScenarioState"] as? String }, ["Started", "scenario-1-counter-2", "scenario-1-counter-3"])
        XCTAssertEqual(recorded.map { $0["newScenarioState"] as? String }, ["scenario-1-counter-2", "scenario-1-counter-3", nil])
        XCTAssertNil(recorded[0]["persistent"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mappingsDir.path), [], "persist: false writes nothing")
        upstream?.stop()
        // Replayed by the stubs, in order.
        for n in 1...3 { XCTAssertEqual(try server.request("GET", "/counter").text, "n=\(n)") }
    }

    func testASnapshotTakesTheProxiedExchangesItsFiltersMatch() throws {
        let server = try start()
        defer { server.stop() }
        let proxy = try server.request("POST", "/__admin/mappings", jsonText: #"{"priority": 10, "request": {"urlPattern": "/.*"}, "response": {"proxyBaseUrl": "\#(target)"}}"#)
        XCTAssertEqual(proxy.status, 201, proxy.text)
        XCTAssertEqual(try server.request("GET", "/counter").text, "n=1")
        XCTAssertEqual(try server.request("GET", "/counter").text, "n=2")
        XCTAssertEqual(try server.request("GET", "/api/users").status, 200)
        XCTAssertEqual(try server.request("DELETE", "/api/users").status, 200)
        let snapshot = try server.request("POST", "/__admin/recordings/snapshot",
                                          jsonText: #"{"filters": {"urlPattern": "/(api|counter).*", "method": "GET"}, "repeatsAsScenarios": false, "persist": "false"}"#)
        XCTAssertEqual(snapshot.status, 200, snapshot.text)
        let recorded = try mappings(snapshot)
        XCTAssertEqual(recorded.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }, ["/counter", "/api/users"],
                       "the DELETE is filtered out, the repeat dropped")
        XCTAssertEqual((recorded[0]["response"] as? [String: Any])?["body"] as? String, "n=1", "the first answer is kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mappingsDir.path), [], "\"persist\": \"false\" (a string, as Jackson takes it)")
        XCTAssertEqual(try status(server), "NeverStarted", "a snapshot is not a recording")
        let ids = try server.request("POST", "/__admin/recordings/snapshot", jsonText: #"{"outputFormat": "ids", "persist": false}"#)
        XCTAssertEqual((ids.jsonObject?["ids"] as? [Any])?.count, 4, "no filter: every proxied exchange, the repeat a scenario; \(ids.text)")
    }

    func testABinaryBodyIsBase64AndExtractBodyCriteriaMovesLargeBodiesToFiles() throws {
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/recordings/start", jsonText: #"{"targetBaseUrl": "\#(target)", "extractBodyCriteria": {"textSizeThreshold": "100", "binarySizeThreshold": 10}}"#).status, 200)
        XCTAssertEqual(try server.request("GET", "/bin").body, [0, 1, 2, 0xFF, 0xFE])
        XCTAssertEqual(try server.request("GET", "/big").body.count, 400)
        let recorded = try mappings(try server.request("POST", "/__admin/recordings/stop"))
        XCTAssertEqual(recorded.count, 2)
        let binary = try XCTUnwrap(recorded[0]["response"] as? [String: Any])
        XCTAssertEqual(binary["base64Body"] as? String, "AAEC//4=", "5 binary bytes stay inline, under the threshold")
        let big = try XCTUnwrap(recorded[1]["response"] as? [String: Any])
        XCTAssertNil(big["body"])
        let file = try XCTUnwrap(big["bodyFileName"] as? String)
        XCTAssertEqual(file, "big-\(recorded[1]["id"] as? String ?? "").txt")
        let written = try Data(contentsOf: filesDir.appendingPathComponent(file))
        XCTAssertEqual(written.count, 400)
        upstream?.stop()
        XCTAssertEqual(try server.request("GET", "/big").text, String(repeating: "abcd", count: 100))
        XCTAssertEqual(try server.request("GET", "/bin").body, [0, 1, 2, 0xFF, 0xFE])
    }

    func testRecordMappingsKeepsEachDistinctProxiedRequestAsAPersistentMapping() throws {
        let path = dir.path
        var limits = StubLimits()
        limits.recordMappings = true
        let upstreamURL = try Upstream(baseURL: target)
        let server = try TestServer(stubs: { clock in try StubLoading.store(root: path, clock: clock, limits: limits) },
                                    proxyAll: ProxyAll(upstream: upstreamURL, preserveHost: false))
        XCTAssertEqual(try server.request("GET", "/counter").text, "n=1")
        // Recorded as it went by: the repeat is the recorded stub's answer, not the upstream's.
        XCTAssertEqual(try server.request("GET", "/counter").text, "n=1")
        XCTAssertEqual(upstream?.requests.count, 1)
        XCTAssertEqual(try server.request("GET", "/api/users").status, 200)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mappingsDir.path).count, 2)
        server.stop()
        upstream?.stop()
        let again = try start()
        defer { again.stop() }
        XCTAssertEqual(try again.request("GET", "/counter").text, "n=1")
    }

    func testClearingTheJournalEmptiesWhatASnapshotTakes() throws {
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/counter"}, "response": {"proxyBaseUrl": "\#(target)"}}"#).status, 201)
        XCTAssertEqual(try server.request("GET", "/counter").text, "n=1")
        XCTAssertEqual(try server.request("DELETE", "/__admin/requests").status, 200)
        let snapshot = try server.request("POST", "/__admin/recordings/snapshot", jsonText: #"{"persist": false}"#)
        XCTAssertEqual(try mappings(snapshot).count, 0, snapshot.text)
    }

    func testWhatTheRecorderDoesNotDoIsRefused() throws {
        let server = try start()
        defer { server.stop() }
        let cases: [(String, String)] = [
            (#"{}"#, "/targetBaseUrl"),
            (#"{"targetBaseUrl": "ftp://127.0.0.1:1"}"#, "/targetBaseUrl"),
            (#"{"targetBaseUrl": "\#(target)", "transformers": ["x"]}"#, "/transformers"),
            (#"{"targetBaseUrl": "\#(target)", "filters": {"ids": ["a"]}}"#, "/filters/ids"),
            (#"{"targetBaseUrl": "\#(target)", "extractBodyCriteria": {"textSizeThreshold": "1 kb"}}"#, "/extractBodyCriteria/textSizeThreshold"),
            (#"{"targetBaseUrl": "\#(target)", "unknown": 1}"#, "/unknown"),
        ]
        for (body, pointer) in cases {
            let answer = try server.request("POST", "/__admin/recordings/start", jsonText: body)
            XCTAssertEqual(answer.status, 422, body)
            let errors = answer.jsonObject?["errors"] as? [[String: Any]]
            XCTAssertEqual((errors?.first?["source"] as? [String: Any])?["pointer"] as? String, pointer, answer.text)
        }
        XCTAssertEqual(try status(server), "NeverStarted")
        let stop = try server.request("POST", "/__admin/recordings/stop")
        XCTAssertEqual(stop.status, 400)
        XCTAssertEqual((stop.jsonObject?["errors"] as? [[String: Any]])?.first?["code"] as? Int, 30)
    }
}

/// A count shared with the upstream's thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
}

/// A recording with large bodies imports: `/__admin/mappings/import` takes up to 64 MiB, other paths keep 1 MiB.
final class StubImportBodyLimitTests: XCTestCase {
    func testAnImportOfARecordedTwoMiBBodyFitsWhereOtherPathsKeepTheirLimit() throws {
        let server = try TestServer()
        defer { server.stop() }
        let big = String(repeating: "x", count: 2 << 20)
        let imported = try server.request("POST", "/__admin/mappings/import",
                                          jsonText: #"{"mappings": [{"request": {"url": "/large"}, "response": {"status": 200, "body": "\#(big)"}}]}"#)
        XCTAssertEqual(imported.status, 200, String(imported.text.prefix(300)))
        XCTAssertEqual(try server.request("GET", "/large").body.count, 2 << 20)
        let elsewhere = try server.request("POST", "/__admin/requests/remove", body: Array(big.utf8))
        XCTAssertEqual(elsewhere.status, 413)
    }
}
