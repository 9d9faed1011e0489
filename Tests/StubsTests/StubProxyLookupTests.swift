import Dispatch
import Foundation
import HTTPServer
import MockTestSupport
import TestSupport
import XCTest

/// An upstream's name is looked up off the event loop: while the name server is slow (a lookup
/// the test holds), the loop, its only one, answers everyone else; the proxied request goes on
/// when the lookup answers, or gets 504 once it has taken longer than the connect timeout.
final class StubProxyLookupTests: XCTestCase {
    /// A lookup of `slow.example` that waits for the test; other names resolve as usual.
    private final class HeldLookup: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var lookups = 0

        var count: Int { lock.withLock { lookups } }

        func lookup(_ host: String, _ port: Int) -> [(storage: sockaddr_storage, length: socklen_t)] {
            guard host == "slow.example" else { return OutboundSettings.systemLookup(host, port) }
            lock.withLock { lookups += 1 }
            entered.signal()
            release.wait()
            return OutboundSettings.systemLookup("127.0.0.1", port)
        }
    }

    private func server(_ held: HeldLookup, connectTimeout: Double = 10) throws -> TestServer {
        try TestServer(configure: {
            $0.eventLoops = 1
            $0.outbound.connectTimeout = connectTimeout
            $0.outbound.lookup = { held.lookup($0, $1) }
        })
    }

    func testTheLoopAnswersOthersWhileANameIsLookedUp() throws {
        let held = HeldLookup()
        let up = try LoopbackUpstream { _ in .send(LoopbackUpstream.response("200 OK", [("Content-Type", "text/plain")], body: Array("from upstream".utf8))) }
        defer { up.stop() }
        let server = try server(held)
        defer { server.stop() }
        let added = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPathPattern": "/named/.*"}, "response": {"proxyBaseUrl": "http://slow.example:\#(up.port)"}}"#)
        XCTAssertEqual(added.status, 201, added.text)

        let proxied = DispatchGroup()
        nonisolated(unsafe) var first: TestResponse?, second: TestResponse?
        proxied.enter()
        DispatchQueue.global().async {
            first = try? server.request("GET", "/named/a")
            proxied.leave()
        }
        XCTAssertEqual(held.entered.wait(timeout: .now() + 30), .success, "the lookup started")
        // The one loop is not held by the lookup: a system's route and a second proxied request
        // to the same name (which waits for the same lookup) are both taken meanwhile.
        proxied.enter()
        DispatchQueue.global().async {
            second = try? server.request("GET", "/named/b")
            proxied.leave()
        }
        let health = try server.request("GET", "/__mock/health")
        XCTAssertEqual(health.status, 200, health.text)
        held.release.signal()
        XCTAssertEqual(proxied.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(first?.status, 200, first?.text ?? "no answer")
        XCTAssertEqual(first?.text, "from upstream")
        XCTAssertEqual(second?.text, "from upstream")
        XCTAssertEqual(held.count, 1, "one lookup for both requests")
        XCTAssertEqual(try server.request("GET", "/named/c").text, "from upstream", "the answer is kept")
        XCTAssertEqual(held.count, 1)
    }

    func testALookupLongerThanTheConnectTimeoutIs504() throws {
        let held = HeldLookup()
        let server = try server(held, connectTimeout: 0.2)
        defer { server.stop() }
        defer { held.release.signal() }
        let added = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPathPattern": "/named/.*"}, "response": {"proxyBaseUrl": "http://slow.example:9"}}"#)
        XCTAssertEqual(added.status, 201, added.text)
        let answer = try server.request("GET", "/named/a")
        XCTAssertEqual(answer.status, 504, answer.text)
        XCTAssertEqual(held.count, 1)
        XCTAssertTrue(answer.header("X-Mock-Hint")?.contains("no address for slow.example within 200 ms") == true, answer.header("X-Mock-Hint") ?? "no hint")
    }
}
