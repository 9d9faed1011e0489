import Foundation
import XCTest
import HTTPServer
import TestSupport

/// Deferred responses over real sockets: completed from another connection or another thread,
/// timed out, and cancelled when the client leaves.
final class DeferredResponseWireTests: XCTestCase {
    /// The promises handed out, and a signal per registration and per cancellation.
    private final class Waiters: Sendable {
        let promises = Locked<[DeferredResponse]>([])
        let registered = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)

        func take() -> DeferredResponse? { promises.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    }

    private func server(_ waiters: Waiters, loops: Int = 2) throws -> Server {
        var router = Router()
        router.get("/hello") { _ in .text(.ok, "hello\n") }
        router.get("/wait") { request, context in
            let ms = UInt64(request.query.split(separator: "=").last.flatMap { UInt64($0) } ?? 60_000)
            let promise = DeferredResponse(timeoutNanos: ms * 1_000_000, onTimeout: { .text(.ok, "nothing new\n") },
                                           onCancel: { waiters.cancelled.signal() })
            waiters.promises.withLock { $0.append(promise) }
            waiters.registered.signal()
            return context.deferring(.text(.ok, "provisional\n"), until: promise)
        }
        router.post("/release") { request in
            // Completed from another connection's handler (possibly another loop's thread).
            let done = waiters.take()?.complete(.text(.ok, String(decoding: request.body, as: UTF8.self))) ?? false
            return .text(.ok, done ? "released\n" : "none\n")
        }
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = loops
        config.shutdownGrace = 1
        let server = Server(configuration: config, responder: Responder(router: router), logger: .silent)
        try server.start()
        return server
    }

    private func waitRegistered(_ waiters: Waiters) {
        XCTAssertEqual(waiters.registered.wait(timeout: .now() + 5), .success, "the handler ran")
    }

    func testAnotherConnectionCompletesTheAnswerAndPipelinedOnesFollowInOrder() throws {
        let waiters = Waiters()
        // One loop: the second client shares the held answer's loop, so "free" means something.
        let s = try server(waiters, loops: 1)
        defer { s.shutdown(); s.waitUntilStopped() }
        let a = try TestHTTPClient(port: s.port)
        try a.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        waitRegistered(waiters)
        let b = try TestHTTPClient(port: s.port)
        XCTAssertEqual(try b.readResponse(afterSending: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text, "hello\n",
                       "the loop is free while an answer is held")
        try b.sendRequest("POST", "/release", body: Array("news\n".utf8))
        XCTAssertEqual(try b.readResponse().text, "released\n")
        XCTAssertEqual(try a.readResponse().text, "news\n")
        XCTAssertEqual(try a.readResponse().text, "hello\n", "behind the held answer, in order")
    }

    func testABackgroundThreadCompletesTheAnswer() throws {
        let waiters = Waiters()
        let s = try server(waiters, loops: 1)
        defer { s.shutdown(); s.waitUntilStopped() }
        let a = try TestHTTPClient(port: s.port)
        try a.sendRequest("GET", "/wait")
        waitRegistered(waiters)
        let promise = try XCTUnwrap(waiters.take())
        DispatchQueue.global().async { promise.complete() }
        XCTAssertEqual(try a.readResponse().text, "provisional\n", "no argument: the handler's own answer")
    }

    func testTheTimeoutAnswersOnALoopTimer() throws {
        let waiters = Waiters()
        let s = try server(waiters, loops: 1)
        defer { s.shutdown(); s.waitUntilStopped() }
        let a = try TestHTTPClient(port: s.port)
        try a.sendRequest("GET", "/wait?ms=50")
        XCTAssertEqual(try a.readResponse().text, "nothing new\n")
        XCTAssertEqual(waiters.take()?.complete(), false, "too late to complete")
    }

    func testAClientThatLeavesCancelsItsWaitingAnswer() throws {
        let waiters = Waiters()
        let s = try server(waiters, loops: 1)
        defer { s.shutdown(); s.waitUntilStopped() }
        var a: TestHTTPClient? = try TestHTTPClient(port: s.port)
        try a?.sendRequest("GET", "/wait")
        waitRegistered(waiters)
        a = nil  // closes the socket
        XCTAssertEqual(waiters.cancelled.wait(timeout: .now() + 5), .success, "onCancel ran")
        XCTAssertEqual(waiters.take()?.isPending, false)
        XCTAssertEqual(try TestHTTPClient(port: s.port).readResponse(afterSending: "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").text,
                       "hello\n")
    }
}

private extension TestHTTPClient {
    func readResponse(afterSending text: String) throws -> TestResponse {
        try send(text)
        return try readResponse()
    }
}
