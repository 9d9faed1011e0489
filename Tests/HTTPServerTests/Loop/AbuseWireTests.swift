import Foundation
import XCTest
@testable import HTTPServer
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clients that stop reading, stay silent or stop mid-frame are closed, and output stays bounded.
final class AbuseWireTests: XCTestCase {
    private static let bigBody = [UInt8](repeating: UInt8(ascii: "b"), count: 4 * 1024 * 1024)

    private func server(configure: (inout ServerConfiguration) -> Void,
                        route: (inout Router) -> Void = { _ in }) throws -> Server {
        var router = Router()
        route(&router)
        router.get("/big") { _ in HTTPResponse(status: .ok, body: AbuseWireTests.bigBody) }
        router.webSocket("/echo") { [$0] }
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = 2
        config.shutdownGrace = 1
        configure(&config)
        let server = Server(configuration: config, responder: Responder(router: router), logger: .silent)
        try server.start()
        return server
    }

    /// Waits, without reading, until the peer resets or hangs up the socket; false after `seconds`.
    /// Asks for POLLIN: Darwin's poll(2) registers no kqueue filter for `events: 0`, so it would
    /// never report the hang-up (Linux reports POLLHUP/POLLERR whatever was asked). While unread
    /// data is waiting, POLLIN alone comes back at once; the socket is then asked again after a
    /// short pause, the reset being something only the kernel can tell us about.
    private func waitForHangup(_ fd: Int32, seconds: Int = 10) -> Bool {
        let deadline = Sys.monotonicNanos() + UInt64(seconds) * 1_000_000_000
        while true {
            let now = Sys.monotonicNanos()
            guard now < deadline else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, Int32((deadline - now) / 1_000_000))
            if n < 0 && errno != EINTR { return false }
            if n > 0 && p.revents & Int16(POLLERR | POLLHUP) != 0 { return true }
            if n > 0 { usleep(10_000) }  // unread data, no reset yet
        }
    }

    func testAnHTTPClientThatNeverReadsIsClosedAfterTheSendTimeout() throws {
        let highWater = 64 * 1024
        let s = try server { $0.sendTimeout = 0.3; $0.outputHighWaterBytes = highWater }
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        try c.send(String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 16))
        XCTAssertTrue(waitForHangup(c.fd), "closed (reset) while the client still had not read")
        XCTAssertLessThanOrEqual(s.peakPendingOutput, highWater + AbuseWireTests.bigBody.count + 1024,
                                 "reading paused at the high-water mark: one answer past it at most")
    }

    /// Issue 20 §1: by default a client that pipelines and never reads holds about one answer of
    /// output (64 KiB), not megabytes, before the server stops reading and answering it.
    func testByDefaultAClientThatNeverReadsHoldsAboutOneAnswer() throws {
        XCTAssertEqual(ServerConfiguration().outputHighWaterBytes, 64 * 1024)
        let page = [UInt8](repeating: UInt8(ascii: "p"), count: 6_000)
        let s = try server(configure: { $0.sendTimeout = 0.3 }, route: { router in
            router.get("/page") { _ in HTTPResponse(status: .ok, body: page) }
        })
        defer { s.shutdown(); s.waitUntilStopped() }
        let c = try TestHTTPClient(port: s.port)
        var small: Int32 = 4096
        setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        // The server stops reading, so this send may block until the reset ends it.
        let burst = [UInt8](String(repeating: "GET /page HTTP/1.1\r\nHost: x\r\n\r\n", count: 3_000).utf8)
        // Only the sending thread touches the client until `sent` is signalled.
        nonisolated(unsafe) let sender = c
        let sent = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? sender.send(burst)
            sent.signal()
        }
        XCTAssertTrue(waitForHangup(c.fd), "closed (reset) by the send timeout")
        XCTAssertEqual(sent.wait(timeout: .now() + 10), .success)
        XCTAssertLessThanOrEqual(s.peakPendingOutput, 64 * 1024 + page.count + 1024, "one answer past 64 KiB at most")
    }

    func testAWebSocketThatSendsButNeverReadsIsBoundedAndClosed() throws {
        let highWater = 64 * 1024
        let s = try server { $0.sendTimeout = 0.3; $0.outputHighWaterBytes = highWater }
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/echo")
        let message = String(repeating: "m", count: 32 * 1024)
        var sent = 0
        // The server stops reading at the high-water mark, so our sends block, then fail once it resets.
        while sent < 4_000 {
            do { try ws.send(text: message) } catch { break }
            sent += 1
        }
        XCTAssertLessThan(sent, 4_000, "the server stopped taking input from a peer that does not read")
        XCTAssertTrue(waitForHangup(ws.socket))
        XCTAssertLessThanOrEqual(s.peakPendingOutput, highWater + 128 * 1024, "one read's replies past the mark at most")
    }

    func testASubscriberThatDoesNotReadIsClosedAtTheHardCap() throws {
        let cap = 256 * 1024
        let opened = Locked<WebSocketConnection?>(nil)
        let s = try server(configure: { $0.maxPendingOutputBytes = cap; $0.outputHighWaterBytes = 64 * 1024 }, route: { router in
            router.webSocket("/events", WebSocketEndpoint(onOpen: { c in opened.withLock { $0 = c } }, onMessage: { _, _ in .none }))
        })
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/events")
        let chunk = WebSocketMessage.text(String(repeating: "e", count: 16 * 1024))
        var handle: WebSocketConnection?
        for _ in 0..<100_000 where handle == nil { handle = opened.withLock { $0 } }
        let subscriber = try XCTUnwrap(handle)
        var pushes = 0
        // Far more than kernel buffers and the cap hold: 1 GiB would be pushed if nothing stopped it.
        while subscriber.isOpen && pushes < 65_536 {
            subscriber.send(chunk)
            pushes += 1
            if pushes % 64 == 0 { sched_yield() }
        }
        XCTAssertTrue(waitForHangup(ws.socket), "the subscriber was reset")
        XCTAssertFalse(subscriber.isOpen)
        XCTAssertLessThanOrEqual(s.peakPendingOutput, cap)
    }

    func testAWebSocketIgnoringPingsIsClosedWith1001() throws {
        let s = try server { $0.webSocketPingInterval = 0.2 }
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/echo")
        let ping = try ws.receiveFrame()
        XCTAssertEqual(ping.opcode, WebSocketOpcode.ping)
        XCTAssertEqual(try ws.receiveClose(), 1001)
    }

    func testAWebSocketAnsweringPingsStaysOpen() throws {
        let s = try server { $0.webSocketPingInterval = 0.2 }
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/echo")
        for _ in 0..<3 {
            let ping = try ws.receiveFrame()
            XCTAssertEqual(ping.opcode, WebSocketOpcode.ping)
            try ws.sendFrame(opcode: WebSocketOpcode.pong, payload: ping.payload)
        }
        try ws.send(text: "still here")
        XCTAssertEqual(try ws.receiveMessage(), .text("still here"))
    }

    func testAHalfSentFrameIsClosedAfterTheFrameTimeout() throws {
        let s = try server { $0.webSocketFrameTimeout = 0.3 }
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/echo")
        try ws.sendRaw([0x81, 0x85, 1, 2, 3, 4, 0x69])  // 5 bytes announced, 1 sent
        XCTAssertEqual(try ws.receiveClose(), 1008)
    }

    func testPushFromAnotherThreadDelayedRepliesAndCloseCodes() throws {
        let opened = Locked<WebSocketConnection?>(nil)
        let s = try server(configure: { _ in }, route: { router in
            router.webSocket("/ctl", WebSocketEndpoint(onOpen: { c in opened.withLock { $0 = c } }, onMessage: { message, context in
                switch message {
                case .text("delay"):
                    context.delayNanos = 100_000_000
                    return WebSocketReply(messages: [.text("delayed")])
                case .text("silence"): return .none
                case .text("close"): return WebSocketReply(close: WebSocketCloseRequest(code: 4002, reason: "asked"))
                default: return WebSocketReply(messages: [message])
                }
            }))
        })
        defer { s.shutdown(); s.waitUntilStopped() }
        let ws = try TestWebSocket(port: s.port, path: "/ctl")
        try ws.send(text: "sync")  // once answered, onOpen has run
        XCTAssertEqual(try ws.receiveMessage(), .text("sync"))
        let handle = try XCTUnwrap(opened.withLock { $0 })
        let pusher = Thread { handle.send(.text("pushed")) }
        pusher.start()
        XCTAssertEqual(try ws.receiveMessage(), .text("pushed"))
        try ws.send(text: "silence")
        try ws.send(text: "delay")
        try ws.send(text: "after")
        XCTAssertEqual(try ws.receiveMessage(), .text("after"), "no reply to silence; a later reply does not wait for a delayed one")
        XCTAssertEqual(try ws.receiveMessage(), .text("delayed"), "the delayed one after its delay")
        try ws.send(text: "close")
        XCTAssertEqual(try ws.receiveClose(), 4002)

        let second = try TestWebSocket(port: s.port, path: "/ctl")
        try second.send(text: "sync")
        XCTAssertEqual(try second.receiveMessage(), .text("sync"))
        let other = try XCTUnwrap(opened.withLock { $0 })
        DispatchQueue.global().async { other.close(code: 4010, reason: "from elsewhere") }
        XCTAssertEqual(try second.receiveClose(), 4010)
    }
}
