import Foundation
import XCTest
@testable import HTTPServer
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The delivery directives faults put on responses, over real sockets.
final class DeliveryWireTests: XCTestCase {
    /// The answers `/held` holds until the test completes them, and a signal for each one held.
    private let held = Locked<[DeferredResponse]>([])
    private let holding = DispatchSemaphore(value: 0)

    private func server(loops: Int = 1, configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> Server {
        var router = Router()
        router.get("/hello") { _ in .text(.ok, "hello\n") }
        router.get("/slow") { _, context in
            context.delivery.delayNanos = 300_000_000
            return .text(.ok, "slow\n")
        }
        router.get("/held") { [held, holding] _, context in
            let promise = DeferredResponse(timeoutNanos: 600_000_000_000)
            held.withLock { $0.append(promise) }
            holding.signal()
            return context.deferring(.text(.ok, "held\n"), until: promise)
        }
        router.get("/close") { _, context in context.delivery.action = .close; return .text(.ok, "x") }
        router.get("/reset") { _, context in context.delivery.action = .reset; return .text(.ok, "x") }
        router.get("/truncate") { _, context in context.delivery.action = .truncate; return .text(.ok, "0123456789") }
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = loops
        config.shutdownGrace = 1
        configure(&config)
        let server = Server(configuration: config, responder: Responder(router: router), logger: .silent)
        try server.start()
        return server
    }

    /// Reads everything until EOF or reset; returns the bytes and whether it ended in a reset.
    private func readToEnd(_ fd: Int32) -> (bytes: [UInt8], reset: Bool) {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { all += chunk[0..<n]; continue }
            return (all, n < 0 && errno == ECONNRESET)
        }
    }

    private func hasData(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    /// Held by the test, not by a clock: "nothing yet" holds however slow the machine.
    func testAHeldAnswerDoesNotBlockTheLoopAndKeepsPipelinedOrder() throws {
        let s = try server()
        defer { s.shutdown(); s.waitUntilStopped() }
        let a = try TestHTTPClient(port: s.port)
        try a.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(holding.wait(timeout: .now() + 30), .success, "the handler ran")
        let b = try TestHTTPClient(port: s.port)
        try b.sendRequest("GET", "/hello")
        XCTAssertEqual(try b.readResponse().text, "hello\n", "another connection is served while one waits")
        XCTAssertFalse(hasData(a.fd), "the held answer, and the one behind it, are still held")
        XCTAssertEqual(held.withLock { $0 }.first?.complete(), true)
        XCTAssertEqual(try a.readResponse().text, "held\n")
        XCTAssertEqual(try a.readResponse().text, "hello\n")
    }

    func testADelayedAnswerComesNoSoonerThanItsDelayAndKeepsPipelinedOrder() throws {
        let s = try server()
        defer { s.shutdown(); s.waitUntilStopped() }
        let a = try TestHTTPClient(port: s.port)
        let sent = Sys.monotonicNanos()
        try a.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(try a.readResponse().text, "slow\n")
        XCTAssertGreaterThanOrEqual(Sys.monotonicNanos() - sent, 300_000_000, "a lower bound only: the delay holds it at least that long")
        XCTAssertEqual(try a.readResponse().text, "hello\n")
    }

    func testCloseEndsTheConnectionWithoutAnAnswer() throws {
        let s = try server()
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        try c.sendRequest("GET", "/close")
        let (bytes, reset) = readToEnd(c.fd)
        XCTAssertEqual(bytes, [])
        XCTAssertFalse(reset, "a clean close (FIN)")
    }

    func testResetEndsTheConnectionWithRST() throws {
        let s = try server()
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        try c.sendRequest("GET", "/reset")
        let (bytes, reset) = readToEnd(c.fd)
        XCTAssertEqual(bytes, [])
        XCTAssertTrue(reset, "ECONNRESET")
    }

    func testTruncateSendsTheHeadAndHalfTheBody() throws {
        let s = try server()
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        try c.sendRequest("GET", "/truncate")
        let text = String(decoding: readToEnd(c.fd).bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(text.contains("Content-Length: 10\r\n"))
        XCTAssertTrue(text.hasSuffix("\r\n\r\n01234"), text)
    }

    func testSingleListenerHandOffServesEveryLoopAndStopsCleanly() throws {
        let s = try server(loops: 3) { $0.singleListener = true }
        XCTAssertTrue(s.usesSingleListener)
        let clients = try (0..<9).map { _ in try TestHTTPClient(port: s.port) }
        for c in clients { try c.sendRequest("GET", "/hello") }
        for c in clients { XCTAssertEqual(try c.readResponse().text, "hello\n") }
        s.shutdown()
        s.waitUntilStopped()
        XCTAssertEqual(s.openConnections, 0)
    }

    func testEachAnsweredRequestAndEachTransportRefusalIsLogged() throws {
        let lines = Locked<[String]>([])
        var router = Router()
        router.group(RouteGroup(system: "rows", prefixes: ["/rows"])) { router in
            router.get("/rows/:id") { _ in .text(.ok, "row\n").hinted("try /rows/1") }
        }
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = 1
        let s = Server(configuration: config, responder: Responder(router: router),
                       logger: Logger(level: .info) { line in lines.withLock { $0.append(line) } })
        try s.start()
        let c = try TestHTTPClient(port: s.port)
        try c.sendRequest("GET", "/rows/7?password=secret")
        XCTAssertEqual(try c.readResponse().status, 200)
        let bad = try TestHTTPClient(port: s.port)
        try bad.send("GARBAGE\r\n\r\n")
        XCTAssertEqual(try bad.readResponse().status, 400)
        s.shutdown()
        s.waitUntilStopped()
        let log = lines.withLock { $0 }
        XCTAssertTrue(log.contains { $0.contains("GET /rows/7 200") && $0.contains(" rows ") && $0.contains("try /rows/1") }, "\(log)")
        XCTAssertFalse(log.contains { $0.contains("secret") }, "never the query")
        XCTAssertTrue(log.contains { $0.contains(" 400 ") }, "\(log)")
    }

    func testThePollBackendServes() throws {
        let s = try server(loops: 2) { $0.poller = .poll }
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        for _ in 0..<3 {
            try c.sendRequest("GET", "/hello")
            XCTAssertEqual(try c.readResponse().text, "hello\n")
        }
    }
}
