import Foundation
import XCTest
@testable import HTTPServer
import TestSupport

/// Start, busy ports and a graceful stop that lets the request in flight finish.
final class ServerLifecycleTests: XCTestCase {
    func testBusyPortFailsWithAClearError() throws {
        let first = try WireFixture()
        var config = ServerConfiguration()
        config.port = first.port
        config.eventLoops = 2
        let second = Server(configuration: config, responder: Responder(router: Router()), logger: .silent)
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertTrue("\(error)".contains("already in use"), "\(error)")
        }
        XCTAssertEqual(try first.request("GET", "/hello").status, 200)
    }

    func testShutdownFinishesTheRequestInFlightAndStopsAccepting() throws {
        let f = try WireFixture { $0.shutdownGrace = 10 }
        let port = f.port
        let c = try f.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf-")
        // Make sure the server has seen the head before it is told to stop.
        let probe = try f.client()
        try probe.sendRequest("GET", "/hello")
        XCTAssertEqual(try probe.readResponse().status, 200)

        f.server.shutdown()
        XCTAssertTrue(probe.isClosedByPeer(), "idle connections are closed at once")
        try c.send("done!")
        let r = try c.readResponse()
        XCTAssertEqual(r.text, "half-done!")
        XCTAssertEqual(r.header("Connection"), "close")
        f.server.waitUntilStopped()
        XCTAssertThrowsError(try TestHTTPClient(port: port), "no longer accepting")
    }

    /// `localhost` is both loopbacks: macOS resolves it to ::1 first, many Linux images to
    /// 127.0.0.1 only, and clients try either; one port, with one loop or several (SO_REUSEPORT).
    func testLocalhostAnswersOnBothLoopbacksAndStopsOnBoth() throws {
        for loops in [1, 2] {
            let f = try WireFixture { $0.host = "localhost"; $0.eventLoops = loops }
            for address in ["127.0.0.1", "::1"] {
                let c = try TestHTTPClient(host: address, port: f.port)
                try c.sendRequest("GET", "/hello")
                XCTAssertEqual(try c.readResponse().text, "hello\n", "\(address), \(loops) loop(s)")
            }
            f.server.shutdown()
            f.server.waitUntilStopped()
            for address in ["127.0.0.1", "::1"] {
                XCTAssertThrowsError(try TestHTTPClient(host: address, port: f.port), "\(address) no longer accepting")
            }
        }
    }

    func testANumericHostListensOnThatAddressOnly() throws {
        let f = try WireFixture { $0.host = "::1" }
        let c = try TestHTTPClient(host: "::1", port: f.port)
        try c.sendRequest("GET", "/hello")
        XCTAssertEqual(try c.readResponse().status, 200)
        XCTAssertThrowsError(try TestHTTPClient(host: "127.0.0.1", port: f.port), "IPv4 is not served")
    }
}
