import Dispatch
import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// Issue 28 R11: `/__mock/events` subscribers that never read hold at most the server-wide budget
/// for pushed output in all (not the per-connection cap each); past it the one holding most drops
/// its unsent events and is closed with 1008 and the reason, which a log line gives too.
final class PushBudgetTests: XCTestCase {
    func testSubscribersThatNeverReadStayWithinTheServerWideBudgetAndAreToldWhy() throws {
        let budget = 1024 * 1024
        let shedLines = DispatchSemaphore(value: 0)
        let logger = Logger(level: .warning) { line in if line.contains("budget for pushed WebSocket output") { shedLines.signal() } }
        let server = try TestServer(logger: logger, configure: { $0.maxPushedOutputBytes = budget })
        defer { server.stop() }
        let subscribers = try (0..<3).map { _ in try TestWebSocket(port: server.port, path: "/__mock/events", timeout: 10) }
        let blob = String(repeating: "x", count: 64 * 1024)
        // 32 MiB to each subscriber: more than the kernel's socket buffers and the budget together,
        // and far less than the per-connection cap (8 MiB) times three beyond them.
        let published = 512
        for _ in 0..<published { server.app.control.events.publish(kind: "request", at: Date()) { ["blob": .string(blob)] } }
        for i in 0..<subscribers.count {
            XCTAssertEqual(shedLines.wait(timeout: .now() + 10), .success, "subscriber \(i + 1) of \(subscribers.count) closed by the budget")
        }
        let figures = server.server.pushedOutput
        // At least one shed each: a subscriber charged again before its loop closed it is shed twice.
        XCTAssertGreaterThanOrEqual(figures.shed, subscribers.count)
        XCTAssertGreaterThan(figures.peak, 0)
        XCTAssertLessThanOrEqual(figures.peak, budget, "the server never held more pushed output than the budget")
        for (i, ws) in subscribers.enumerated() {
            var received = 0
            var close: [UInt8]?
            while close == nil {
                let frame = try ws.receiveFrame()
                if frame.opcode == WebSocketOpcode.close { close = frame.payload } else if frame.fin { received += 1 }
            }
            let payload = close ?? []
            XCTAssertEqual(payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 0, WebSocketCloseCode.policyViolation, "subscriber \(i + 1)")
            let reason = String(decoding: payload.dropFirst(2), as: UTF8.self)
            XCTAssertTrue(reason.contains("output budget"), reason)
            XCTAssertLessThan(received, published, "subscriber \(i + 1)'s unsent events were dropped")
        }
        // Everything given back, and the server still answers.
        XCTAssertEqual(server.server.pushedOutput.held, 0)
        XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
    }
}
