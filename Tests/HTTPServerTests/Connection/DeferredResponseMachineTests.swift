import XCTest
@testable import HTTPServer

/// Deferred responses in the connection machine alone: a moved clock and the mailbox taken by hand.
final class DeferredResponseMachineTests: XCTestCase {
    private var env: ConnectionEnvironment!
    /// The promises the `/wait` route handed out, in order.
    private let promises = Locked<[DeferredResponse]>([])
    private let cancelled = Locked(0)

    private func makeMachine(maxDeferredSeconds: Double = 600) -> ConnectionMachine {
        var router = Router()
        router.get("/hello") { _ in .text(.ok, "hello\n") }
        router.get("/wait") { [promises, cancelled] request, context in
            let promise = DeferredResponse(timeoutNanos: 5_000_000_000,
                                           onTimeout: { .text(.ok, "timed out\n") },
                                           onCancel: { cancelled.withLock { $0 += 1 } })
            promises.withLock { $0.append(promise) }
            if request.query == "now" { promise.complete(.text(.ok, "at once\n")) }
            return context.deferring(.text(.ok, "provisional\n"), until: promise)
        }
        var config = ServerConfiguration()
        config.maxDeferredSeconds = maxDeferredSeconds
        env = ConnectionEnvironment(responder: Responder(router: router), logger: .silent,
                                    settings: ConnectionSettings(configuration: config), mailbox: LoopMailbox(wake: {}))
        env.now = 1_000_000_000
        return ConnectionMachine(id: ConnectionID(fd: 5, serial: 1), remoteAddress: "10.0.0.9", localPort: 8080, environment: env)
    }

    private func feed(_ m: ConnectionMachine, _ text: String) { Array(text.utf8).withUnsafeBytes { m.receive($0) } }

    private func drainOutput(_ m: ConnectionMachine) -> String {
        let bytes = m.withPendingOutput { Array($0) }
        m.didWrite(bytes.count)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What the loop does when woken: hands the posted commands to the machine.
    private func runMailbox(_ m: ConnectionMachine) {
        for (id, command) in env.mailbox.take().commands where id == m.id { m.command(command) }
    }

    private var lastPromise: DeferredResponse? { promises.withLock { $0.last } }

    func testTheAnswerWaitsForItsCompletionAndThePipelinedOnesWaitBehindIt() {
        let m = makeMachine()
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(m.pendingOutput, 0, "nothing before the completion")
        XCTAssertEqual(m.nextRelease, env.now + 5_000_000_000, "the loop is woken at the deadline")
        XCTAssertEqual(lastPromise?.isPending, true)
        XCTAssertEqual(lastPromise?.complete(.text(.ok, "done\n")), true)
        XCTAssertEqual(m.pendingOutput, 0, "completion reaches the connection through its loop's mailbox")
        runMailbox(m)
        let out = drainOutput(m)
        let done = out.range(of: "done\n"), hello = out.range(of: "hello\n")
        XCTAssertNotNil(done, out)
        XCTAssertNotNil(hello, out)
        if let done, let hello { XCTAssertLessThan(done.lowerBound, hello.lowerBound, "pipeline order") }
        XCTAssertEqual(lastPromise?.complete(), false, "completed once")
        XCTAssertEqual(m.nextRelease, 0)
    }

    func testCompletingWithoutAResponseSendsTheHandlersOwn() {
        let m = makeMachine()
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        lastPromise?.complete()
        runMailbox(m)
        XCTAssertTrue(drainOutput(m).hasSuffix("provisional\n"))
    }

    func testACompletionBeforeTheHandlerReturnedIsSentAtOnce() {
        let m = makeMachine()
        feed(m, "GET /wait?now HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let out = drainOutput(m)
        XCTAssertTrue(out.contains("at once\n") && out.hasSuffix("hello\n"), out)
    }

    func testTheTimeoutAnswersWithTheTimeoutResponse() {
        let m = makeMachine()
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        env.now += 4_900_000_000
        m.tick()
        XCTAssertEqual(m.pendingOutput, 0)
        env.now += 200_000_000
        m.tick()
        XCTAssertTrue(drainOutput(m).hasSuffix("timed out\n"))
        XCTAssertEqual(lastPromise?.complete(), false, "too late")
        XCTAssertEqual(cancelled.withLock { $0 }, 0, "a timeout is not a cancellation")
    }

    func testTheServerBoundsHowLongAnAnswerMayBeHeld() {
        let m = makeMachine(maxDeferredSeconds: 1)
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(m.nextRelease, env.now + 1_000_000_000, "5 s asked, 1 s allowed")
        env.now += 1_000_000_001
        m.tick()
        XCTAssertTrue(drainOutput(m).hasSuffix("timed out\n"))
    }

    func testAClientThatGoesAwayCancelsThePromise() {
        let m = makeMachine()
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(promises.withLock { $0.count }, 2)
        m.peerClosed()
        m.closed()
        XCTAssertEqual(cancelled.withLock { $0 }, 2, "each waiting answer is cancelled once")
        XCTAssertEqual(lastPromise?.isPending, false)
        XCTAssertEqual(lastPromise?.complete(), false)
        runMailbox(m)
        XCTAssertEqual(m.pendingOutput, 0)
    }

    func testAStaleCompletionForAnotherConnectionIsIgnored() {
        let m = makeMachine()
        feed(m, "GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        m.command(.deferredReady(999))
        XCTAssertEqual(m.pendingOutput, 0, "no slot has that token")
        lastPromise?.complete()
        runMailbox(m)
        XCTAssertGreaterThan(m.pendingOutput, 0)
    }
}
