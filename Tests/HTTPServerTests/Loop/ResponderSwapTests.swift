import Foundation
import XCTest
import HTTPServer
import TestSupport

/// `Server.replaceResponder`: before the start, while running (every loop, an open keep-alive
/// connection included), and after the stop; `applied` always runs.
final class ResponderSwapTests: XCTestCase {
    private func responder(_ text: String) -> Responder {
        var router = Router()
        router.get("/which") { _ in .text(.ok, text) }
        return Responder(router: router)
    }

    private func configuration() throws -> ServerConfiguration {
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = 2
        config.shutdownGrace = 1
        try config.applyTestEnvironment()
        return config
    }

    /// Waits for `applied`, failing (not hanging) if it never runs.
    private func waitApplied(_ applied: DispatchSemaphore, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(applied.wait(timeout: .now() + 10), .success, "applied never ran", file: file, line: line)
    }

    private func which(_ client: TestHTTPClient) throws -> String {
        try client.sendRequest("GET", "/which")
        return try client.readResponse().text
    }

    func testASwapReachesEveryLoopAndAnOpenConnection() throws {
        let server = Server(configuration: try configuration(), responder: responder("old"), logger: .silent)
        try server.start()
        defer {
            server.shutdown()
            server.waitUntilStopped()
        }
        let kept = try TestHTTPClient(port: server.port)
        XCTAssertEqual(try which(kept), "old")
        let applied = DispatchSemaphore(value: 0)
        server.replaceResponder(responder("new")) { applied.signal() }
        waitApplied(applied)
        XCTAssertEqual(try which(kept), "new", "the next request of a kept-alive connection")
        for _ in 0..<8 { XCTAssertEqual(try which(try TestHTTPClient(port: server.port)), "new") }
    }

    func testASwapBeforeTheStartIsWhatTheLoopsStartWith() throws {
        let server = Server(configuration: try configuration(), responder: responder("old"), logger: .silent)
        let applied = DispatchSemaphore(value: 0)
        server.replaceResponder(responder("new")) { applied.signal() }
        waitApplied(applied)
        try server.start()
        defer {
            server.shutdown()
            server.waitUntilStopped()
        }
        for _ in 0..<4 { XCTAssertEqual(try which(try TestHTTPClient(port: server.port)), "new") }
    }

    func testASwapAfterTheStopIsAppliedAtOnce() throws {
        let server = Server(configuration: try configuration(), responder: responder("old"), logger: .silent)
        try server.start()
        server.shutdown()
        server.waitUntilStopped()
        let applied = DispatchSemaphore(value: 0)
        let ran = DispatchSemaphore(value: 0)
        server.replaceResponder(responder("new")) { applied.signal(); ran.signal() }
        // Applied at once: on the caller's thread, before replaceResponder returns.
        XCTAssertEqual(ran.wait(timeout: .now()), .success, "applied did not run before replaceResponder returned")
        waitApplied(applied)
    }
}
