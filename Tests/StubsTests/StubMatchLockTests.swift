import Dispatch
import Foundation
import HTTPServer
import MockTestSupport
import Routes
import Stubs
import TestSupport
import XCTest

/// A match runs with the store's lock released: a match held in the middle (by the store's test
/// probe, on a semaphore this test controls) lets the admin API change the stubs meanwhile, and
/// the held match then commits what the store says at that moment, not what it read before.
final class StubMatchLockTests: XCTestCase {
    /// Holds the first match of a path in `held` until `release`; every other match passes.
    private final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let calls = Locked(0)
        let path: String

        init(path: String) { self.path = path }

        func probe(_ request: StubRequest) {
            guard request.url.hasPrefix(path) else { return }
            guard calls.withLock({ c -> Bool in c += 1; return c == 1 }) else { return }
            entered.signal()
            // Bounded, so a broken build fails rather than hangs the run.
            _ = release.wait(timeout: .now() + 20)
        }

        var count: Int { calls.withLock { $0 } }
    }

    /// Two event loops and one listener that deals connections in turn: two connections opened
    /// one after the other are on different loops, so one answers while the other's loop is held.
    private func start(_ gate: Gate) throws -> TestServer {
        try TestServer(configure: { config in
            config.eventLoops = 2
            config.singleListener = true
        }, stubs: { clock in
            StubStore(now: { clock.now() }, matchProbe: { gate.probe($0) })
        })
    }

    /// Two connections, each answered once (so both are on their loops before either is held).
    private func twoConnections(_ server: TestServer) throws -> (TestHTTPClient, TestHTTPClient) {
        let first = try server.connect(), second = try server.connect()
        for client in [first, second] {
            try client.sendRequest("GET", "/__mock/health")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        return (first, second)
    }

    private func send(_ client: TestHTTPClient, _ method: String, _ path: String, json: String? = nil) throws -> TestResponse {
        let headers = json == nil ? TestServer.adminWrite : [("Content-Type", "application/json")]
        try client.sendRequest(method, path, headers: headers, body: Array((json ?? "").utf8))
        return try client.readResponse()
    }

    func testAnAdminDeleteCompletesWhileAMatchIsHeld() throws {
        let gate = Gate(path: "/slow")
        let server = try start(gate)
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPathPattern": "/slow.*"}, "response": {"body": "slow"}}"#).status, 201)
        let (held, admin) = try twoConnections(server)

        try held.sendRequest("GET", "/slow")
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 10), .success, "the match reached the probe")
        // The match is held mid-way; the admin's calls on the other loop do not wait for it.
        XCTAssertEqual(try send(admin, "DELETE", "/__admin/mappings").status, 200)
        let listed = try send(admin, "GET", "/__admin/mappings").jsonObject?["mappings"] as? [[String: Any]]
        XCTAssertEqual(listed?.count, 0)
        gate.release.signal()

        // The held match read a mapping that is gone by its commit: it matches again, on nothing.
        XCTAssertEqual(try held.readResponse().status, 404)
        XCTAssertEqual(gate.count, 2, "matched twice: the snapshot it read had moved on")
    }

    func testAScenarioMovedDuringAHeldMatchIsMatchedAgain() throws {
        let gate = Gate(path: "/step")
        let server = try start(gate)
        defer { server.stop() }
        for (required, next, body) in [("Started", "two", "first"), ("two", "three", "second")] {
            let mapping = #"{"scenarioName": "s", "requiredScenarioState": "\#(required)", "newScenarioState": "\#(next)", "request": {"url": "/step"}, "response": {"body": "\#(body)"}}"#
            XCTAssertEqual(try server.request("POST", "/__admin/mappings", jsonText: mapping).status, 201)
        }
        let (held, other) = try twoConnections(server)

        try held.sendRequest("GET", "/step")
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 10), .success)
        // Meanwhile another request takes the Started step and moves the scenario on.
        XCTAssertEqual(try send(other, "GET", "/step").text, "first")
        gate.release.signal()

        // The held match had read Started; it is matched again and takes the next step, not the same one twice.
        XCTAssertEqual(try held.readResponse().text, "second")
        let scenarios = try server.request("GET", "/__admin/scenarios").jsonObject?["scenarios"] as? [[String: Any]]
        XCTAssertEqual(scenarios?.first?["state"] as? String, "three")
    }

    func testAHeldMatchThatStillHoldsCountsItsHitOnce() throws {
        let gate = Gate(path: "/count")
        let server = try start(gate)
        defer { server.stop() }
        let created = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/count"}, "response": {"body": "c"}}"#)
        let id = try XCTUnwrap(created.jsonObject?["id"] as? String)
        let (held, admin) = try twoConnections(server)

        try held.sendRequest("GET", "/count")
        XCTAssertEqual(gate.entered.wait(timeout: .now() + 10), .success)
        // A change of something the match did not read (the journal) leaves it valid.
        XCTAssertEqual(try send(admin, "DELETE", "/__admin/requests").status, 200)
        gate.release.signal()
        XCTAssertEqual(try held.readResponse().text, "c")
        XCTAssertEqual(gate.count, 1, "committed at the first attempt")
        XCTAssertEqual(server.app.stubs.hits(id: id), 1)
    }
}
