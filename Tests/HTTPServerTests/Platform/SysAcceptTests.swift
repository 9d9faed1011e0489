#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HTTPServer
import TestSupport

/// What `Sys.accept` tells the loop, on a real listener.
final class SysAcceptTests: XCTestCase {
    func testAcceptOutcomes() throws {
        let (listeners, port) = try Sys.listen(host: "127.0.0.1", port: 0, backlog: 16, reusePort: false)
        let listener = try XCTUnwrap(listeners.first)
        defer { Sys.close(listener) }
        XCTAssertEqual(Sys.accept(listener), .wouldBlock, "nobody waiting yet")

        let client = try TestHTTPClient(port: port)
        guard case .connection(let fd, let peer) = try acceptWaiting(listener) else {
            return XCTFail("no connection")
        }
        defer { Sys.close(fd) }
        XCTAssertEqual(peer, "127.0.0.1")
        XCTAssertNotEqual(fcntl(fd, F_GETFL, 0) & O_NONBLOCK, 0, "non-blocking")
        XCTAssertNotEqual(fcntl(fd, F_GETFD, 0) & FD_CLOEXEC, 0, "close-on-exec")
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(buffer.withUnsafeMutableBytes { Sys.recv(fd, into: $0) }, -1)
        XCTAssertTrue(Sys.isWouldBlock(Sys.lastError), "nothing sent yet")
        try client.send("hi")
        XCTAssertEqual(try readSome(fd, into: &buffer), 2)
    }

    /// Each kernel's documented answer to a pending client at EMFILE: Linux keeps it queued; xnu
    /// takes it off the queue before allocating the descriptor and closes it when that fails
    /// (`bsd/kern/uipc_syscalls.c:553-567, 619-634`), so the loop must not accept-and-close another.
    func testOutOfDescriptorsIsReportedAndTheClientIsQueuedOnLinuxDroppedOnDarwin() throws {
        let (listeners, port) = try Sys.listen(host: "127.0.0.1", port: 0, backlog: 16, reusePort: false)
        let listener = try XCTUnwrap(listeners.first)
        defer { Sys.close(listener) }
        let client = try TestHTTPClient(port: port)
        defer { withExtendedLifetime(client) {} }
        // The lowest free descriptor becomes the limit, so the next one cannot be created.
        let probe = Sys.openSpare()
        XCTAssertGreaterThanOrEqual(probe, 0)
        Sys.close(probe)
        var saved = rlimit()
        XCTAssertEqual(Sys.getFileLimit(&saved), 0)
        var tight = saved
        tight.rlim_cur = rlim_t(probe)
        XCTAssertEqual(Sys.setFileLimit(&tight), 0)
        let outcome = Sys.accept(listener)
        XCTAssertEqual(Sys.setFileLimit(&saved), 0)
        guard case .outOfDescriptors = outcome else { return XCTFail("got \(outcome)") }
        #if canImport(Darwin)
        XCTAssertTrue(Sys.acceptDropsClientWhenOutOfDescriptors)
        // Dropped by the kernel: nothing is pending any more, and the client sees its end.
        XCTAssertEqual(Sys.accept(listener), .wouldBlock, "xnu dequeues the client before failing")
        XCTAssertTrue(client.isClosedByPeer(), "xnu closes the dequeued client")
        #else
        XCTAssertFalse(Sys.acceptDropsClientWhenOutOfDescriptors)
        // The client is still queued: with descriptors back, it is accepted.
        guard case .connection(let fd, _) = try acceptWaiting(listener) else { return XCTFail("client lost") }
        Sys.close(fd)
        #endif
    }

    func testKeepAliveAndNoDelayOptionsAreSet() throws {
        let (listeners, port) = try Sys.listen(host: "127.0.0.1", port: 0, backlog: 16, reusePort: false)
        let listener = try XCTUnwrap(listeners.first)
        defer { Sys.close(listener) }
        let client = try TestHTTPClient(port: port)
        defer { withExtendedLifetime(client) {} }
        guard case .connection(let fd, _) = try acceptWaiting(listener) else { return XCTFail("no connection") }
        defer { Sys.close(fd) }
        Sys.setKeepAlive(fd, idleSeconds: 42)
        // A boolean option reads back as "non-zero", not 1: xnu's sogetoptlock answers
        // `so_options & SO_KEEPALIVE` (8), Linux answers 1 (docs/darwin-differences.md).
        XCTAssertNotEqual(try option(fd, SOL_SOCKET, SO_KEEPALIVE), 0, "accept sets SO_KEEPALIVE")
        XCTAssertEqual(try option(fd, Int32(IPPROTO_TCP), Sys.keepIdleOption), 42, "an idle time reads back in seconds on both")
        XCTAssertNotEqual(try option(fd, Int32(IPPROTO_TCP), TCP_NODELAY), 0, "accept sets TCP_NODELAY")
    }

    private func option(_ fd: Int32, _ level: Int32, _ name: Int32) throws -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, level, name, &value, &length) == 0 else {
            throw ServerError.system(call: "getsockopt", errno: errno)
        }
        return value
    }

    /// Accepts, waiting (bounded, on the listener's readiness) for the client to arrive.
    private func acceptWaiting(_ listener: Int32) throws -> Sys.AcceptOutcome {
        let poller = try PollerKind.poll.make()
        try poller.add(listener, read: true, write: false)
        var events: [PollEvent] = []
        _ = try poller.wait(timeoutMillis: 5000, into: &events)
        return Sys.accept(listener)
    }

    private func readSome(_ fd: Int32, into buffer: inout [UInt8]) throws -> Int {
        let poller = try PollerKind.poll.make()
        try poller.add(fd, read: true, write: false)
        var events: [PollEvent] = []
        _ = try poller.wait(timeoutMillis: 5000, into: &events)
        return buffer.withUnsafeMutableBytes { Sys.recv(fd, into: $0) }
    }
}
