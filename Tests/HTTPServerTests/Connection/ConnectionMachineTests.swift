import XCTest
@testable import HTTPServer

/// The per-connection state machine alone: byte sequences in, a moved clock, actions out.
final class ConnectionMachineTests: XCTestCase {
    private var env: ConnectionEnvironment!
    private var logged: Locked<[String]>!

    private func makeMachine(configure: (inout ServerConfiguration) -> Void = { _ in },
                             route: (inout Router) -> Void = { _ in }) -> ConnectionMachine {
        var router = Router()
        route(&router)  // first: the first matching route wins
        router.get("/hello") { _ in .text(.ok, "hello\n") }
        router.get("/slow") { _, context in
            context.delivery = Delivery(delayNanos: 2_000_000_000)
            return .text(.ok, "slow\n")
        }
        router.get("/close") { _, context in context.delivery.action = .close; return .text(.ok, "x") }
        router.get("/reset") { _, context in context.delivery.action = .reset; return .text(.ok, "x") }
        router.get("/truncate") { _, context in context.delivery.action = .truncate; return .text(.ok, "0123456789") }
        router.get("/big") { _ in .text(.ok, String(repeating: "b", count: 100_000)) }
        router.webSocket("/ws") { [$0] }
        var config = ServerConfiguration()
        config.headerTimeout = 1
        config.sendTimeout = 3
        config.webSocketPingInterval = 5
        config.webSocketFrameTimeout = 2
        config.outputHighWaterBytes = 150_000
        configure(&config)
        let lines = Locked<[String]>([])
        logged = lines
        let logger = Logger(level: .debug) { line in lines.withLock { $0.append(line) } }
        env = ConnectionEnvironment(responder: Responder(router: router), logger: logger,
                                    settings: ConnectionSettings(configuration: config), mailbox: LoopMailbox(wake: {}))
        env.now = 1_000_000_000
        return ConnectionMachine(id: ConnectionID(fd: 5, serial: 1), remoteAddress: "10.0.0.9", localPort: 8080, environment: env)
    }

    private func feed(_ m: ConnectionMachine, _ text: String) { feed(m, Array(text.utf8)) }
    private func feed(_ m: ConnectionMachine, _ bytes: [UInt8]) { bytes.withUnsafeBytes { m.receive($0) } }

    /// Takes everything pending as if the socket accepted it all.
    private func drainOutput(_ m: ConnectionMachine) -> String {
        let bytes = m.withPendingOutput { Array($0) }
        m.didWrite(bytes.count)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func advance(_ seconds: Double, _ m: ConnectionMachine) {
        env.now += UInt64(seconds * 1e9)
        m.tick()
    }

    func testARequestIsAnsweredAndLoggedWithItsPeer() {
        let m = makeMachine()
        feed(m, "GET /hello?secret=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let out = drainOutput(m)
        XCTAssertTrue(out.hasPrefix("HTTP/1.1 200 OK\r\n"), out)
        XCTAssertTrue(out.hasSuffix("hello\n"))
        XCTAssertEqual(m.close, .none)
        XCTAssertTrue(m.wantsRead)
        let lines = logged.withLock { $0 }
        XCTAssertTrue(lines.contains { $0.contains("GET /hello 200") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("secret") }, "never the query")
    }

    func testBytesSplitAnywhereGiveTheSameAnswers() {
        let m = makeMachine()
        let text = Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        for byte in text { feed(m, [byte]) }
        let out = drainOutput(m)
        XCTAssertEqual(out.components(separatedBy: "HTTP/1.1 200 OK").count - 1, 2)
        XCTAssertTrue(out.contains("Connection: close"))
        XCTAssertEqual(m.close, .afterFlush)
    }

    func testADelayedAnswerHoldsThePipelinedOnesBehindItInOrder() {
        let m = makeMachine()
        feed(m, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(m.pendingOutput, 0, "nothing before the delay passes")
        XCTAssertEqual(m.nextRelease, env.now + 2_000_000_000)
        advance(1.9, m)
        XCTAssertEqual(m.pendingOutput, 0)
        advance(0.2, m)
        let out = drainOutput(m)
        let slow = out.range(of: "slow\n"), hello = out.range(of: "hello\n")
        XCTAssertNotNil(slow)
        XCTAssertNotNil(hello)
        if let slow, let hello { XCTAssertLessThan(slow.lowerBound, hello.lowerBound, "answers keep request order") }
        XCTAssertEqual(m.nextRelease, 0)
    }

    func testCloseResetAndTruncateDirectives() {
        let close = makeMachine()
        feed(close, "GET /close HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(close.pendingOutput, 0, "no answer at all")
        XCTAssertEqual(close.close, .afterFlush)

        let reset = makeMachine()
        feed(reset, "GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(reset.pendingOutput, 0)
        XCTAssertEqual(reset.close, .reset)

        let truncate = makeMachine()
        feed(truncate, "GET /truncate HTTP/1.1\r\nHost: x\r\n\r\n")
        let out = drainOutput(truncate)
        XCTAssertTrue(out.contains("Content-Length: 10\r\n"), "the full length is announced")
        XCTAssertTrue(out.hasSuffix("\r\n\r\n01234"), out)
        XCTAssertEqual(truncate.close, .afterFlush)
    }

    func testAnUnfinishedHeadGets408AfterTheHeaderTimeout() {
        let m = makeMachine()
        feed(m, "GET /hello HTTP/1.1\r\nHo")
        advance(0.9, m)
        XCTAssertEqual(m.pendingOutput, 0)
        advance(0.2, m)
        XCTAssertTrue(drainOutput(m).hasPrefix("HTTP/1.1 408"))
        XCTAssertEqual(m.close, .afterFlush)
        XCTAssertTrue(logged.withLock { $0 }.contains { $0.contains("- - 408") })
    }

    func testOutputThatDoesNotDrainIsAbortedAfterTheSendTimeout() {
        let m = makeMachine()
        feed(m, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertGreaterThan(m.pendingOutput, 0)
        advance(2.9, m)
        XCTAssertEqual(m.close, .none)
        m.didWrite(10)  // progress restarts the clock
        advance(2.9, m)
        XCTAssertEqual(m.close, .none)
        advance(0.2, m)
        XCTAssertEqual(m.close, .abort)
    }

    func testReadingPausesAtTheHighWaterMarkAndResumesWhenDrained() {
        let m = makeMachine()
        feed(m, String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 4))
        XCTAssertTrue(m.outputPaused)
        XCTAssertFalse(m.wantsRead)
        XCTAssertLessThanOrEqual(m.pendingOutput, 250_000, "one answer past the mark at most")
        advance(5, m)
        XCTAssertNotEqual(m.close, .none, "paused does not mean forever: the send timeout applies")
    }

    func testHeldRequestsAreAnsweredOnceOutputDrains() {
        let m = makeMachine()
        feed(m, String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 4))
        var answers = 0
        while m.pendingOutput > 0 {
            answers += drainOutput(m).components(separatedBy: "HTTP/1.1 200 OK").count - 1
        }
        XCTAssertEqual(answers, 4)
        XCTAssertTrue(m.wantsRead)
        XCTAssertGreaterThan(env.releasedBytes, 100_000, "the burst's big output buffer was given back once drained")
    }

    func testAClosedConnectionGivesItsBuffersBack() {
        let m = makeMachine()
        feed(m, String(repeating: "GET /big HTTP/1.1\r\nHost: x\r\n\r\n", count: 4))
        let before = env.releasedBytes
        m.closed()
        XCTAssertGreaterThan(env.releasedBytes - before, 150_000, "pending output and held input are counted as released")
        XCTAssertEqual(m.pendingOutput, 0)
    }

    func testAnIdleConnectionClosesAfterTheIdleTimeout() {
        let m = makeMachine { $0.idleTimeout = 4 }
        feed(m, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = drainOutput(m)
        advance(3.9, m)
        XCTAssertEqual(m.close, .none)
        advance(0.2, m)
        XCTAssertEqual(m.close, .now)
    }

    func testDrainClosesIdleAndLetsTheRequestInFlightFinishWithClose() {
        let idle = makeMachine()
        env.draining = true
        idle.beginDrain()
        XCTAssertEqual(idle.close, .now)

        let busy = makeMachine()
        feed(busy, "GET /hello HTTP/1.1\r\nHost:")
        env.draining = true
        busy.beginDrain()
        XCTAssertEqual(busy.close, .none)
        feed(busy, " x\r\n\r\n")
        XCTAssertTrue(drainOutput(busy).contains("Connection: close"))
        XCTAssertEqual(busy.close, .afterFlush)
    }

    // MARK: - WebSocket

    private static let upgrade = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    private func maskedFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode, 0x80 | UInt8(payload.count)]
        let mask: [UInt8] = [1, 2, 3, 4]
        frame += mask
        for (i, b) in payload.enumerated() { frame.append(b ^ mask[i % 4]) }
        return frame
    }

    private func openWebSocket(configure: (inout ServerConfiguration) -> Void = { _ in },
                               route: (inout Router) -> Void = { _ in }) -> ConnectionMachine {
        let m = makeMachine(configure: configure, route: route)
        feed(m, ConnectionMachineTests.upgrade)
        XCTAssertTrue(drainOutput(m).hasPrefix("HTTP/1.1 101"))
        XCTAssertEqual(m.phase, .webSocket)
        return m
    }

    func testUpgradeThenEchoInTheSameRead() {
        let m = makeMachine()
        feed(m, Array(ConnectionMachineTests.upgrade.utf8) + maskedFrame(1, Array("hi".utf8)))
        let out = m.withPendingOutput { Array($0) }
        XCTAssertEqual(Array(out.suffix(4)), [0x81, 2, UInt8(ascii: "h"), UInt8(ascii: "i")])
    }

    func testAQuietPeerIsPingedAndClosedWhenItDoesNotAnswer() {
        let m = openWebSocket()
        advance(5.1, m)
        XCTAssertEqual(m.withPendingOutput { Array($0) }, [0x89, 0], "a ping")
        _ = drainOutput(m)
        feed(m, maskedFrame(0xA, []))  // the pong
        advance(5.1, m)
        _ = drainOutput(m)
        XCTAssertEqual(m.close, .none, "answered: still open, pinged again")
        advance(5.1, m)
        let out = m.withPendingOutput { Array($0) }
        XCTAssertEqual(Array(out.prefix(4)), [0x88, out.count > 1 ? out[1] : 0, 0x03, 0xE9], "close 1001")
        XCTAssertEqual(m.close, .afterFlush)
    }

    func testAFrameLeftUnfinishedIsClosed() {
        let m = openWebSocket()
        feed(m, Array(maskedFrame(1, Array("hello".utf8)).prefix(4)))
        advance(1.5, m)
        XCTAssertEqual(m.close, .none)
        advance(1.0, m)
        let out = m.withPendingOutput { Array($0) }
        XCTAssertEqual(Array(out.prefix(1)), [0x88])
        XCTAssertEqual(Array(out.dropFirst(2).prefix(2)), [0x03, 0xF0], "close 1008")
        XCTAssertEqual(m.close, .afterFlush)
    }

    func testEndpointRepliesMayBeDelayedAbsentOrAClose() {
        let m = openWebSocket(route: { router in
            router.webSocket("/ws", WebSocketEndpoint(onMessage: { message, context in
                switch message {
                case .text("later"):
                    context.delayNanos = 1_000_000_000
                    return WebSocketReply(messages: [.text("now")])
                case .text("bye"): return WebSocketReply(close: WebSocketCloseRequest(code: 4000, reason: "bye"))
                default: return .none
                }
            }))
        })
        feed(m, maskedFrame(1, Array("ignored".utf8)))
        XCTAssertEqual(m.pendingOutput, 0, "no reply")
        feed(m, maskedFrame(1, Array("later".utf8)))
        XCTAssertEqual(m.pendingOutput, 0)
        advance(1.1, m)
        XCTAssertEqual(m.withPendingOutput { Array($0) }, [0x81, 3] + Array("now".utf8))
        _ = drainOutput(m)
        feed(m, maskedFrame(1, Array("bye".utf8)))
        let out = m.withPendingOutput { Array($0) }
        XCTAssertEqual(Array(out.prefix(4)), [0x88, 5, 0x0F, 0xA0])
        XCTAssertEqual(m.close, .afterFlush)
    }

    func testPushedMessagesPastTheHardCapAbortTheConnection() {
        let m = openWebSocket { $0.maxPendingOutputBytes = 10_000; $0.outputHighWaterBytes = 5_000 }
        let chunk = WebSocketMessage.text(String(repeating: "e", count: 1_000))
        for _ in 0..<20 { m.command(.send(WebSocketPayload(chunk))) }
        XCTAssertEqual(m.close, .abort)
        XCTAssertLessThanOrEqual(env.peakPendingOutput, 10_000)
    }

    func testTheHandleIsClosedAndOnCloseRunsWhenTheConnectionEnds() {
        let closedPaths = Locked<[String]>([])
        let opened = Locked<WebSocketConnection?>(nil)
        let m = openWebSocket(route: { router in
            router.webSocket("/ws", WebSocketEndpoint(onOpen: { c in opened.withLock { $0 = c } },
                                                      onMessage: { _, _ in .none },
                                                      onClose: { c in closedPaths.withLock { $0.append(c.path) } }))
        })
        let handle = opened.withLock { $0 }
        XCTAssertEqual(handle?.isOpen, true)
        XCTAssertEqual(handle?.remoteAddress, "10.0.0.9")
        m.closed()
        XCTAssertEqual(handle?.isOpen, false)
        XCTAssertEqual(closedPaths.withLock { $0 }, ["/ws"])
    }
}
