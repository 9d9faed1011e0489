#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
@testable import HTTPServer

/// Every poller this system has, through the same scenarios, on a real socketpair.
final class PollerTests: XCTestCase {
    private let kinds = PollerKind.allCases.filter(\.isAvailable)

    /// A connected pair of non-blocking stream sockets, closed when the test ends.
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Sys.streamType, 0, &fds) == 0 else { throw ServerError.system(call: "socketpair", errno: errno) }
        for fd in fds { Sys.setNonBlocking(fd) }
        addTeardownBlock { for fd in fds { Sys.close(fd) } }
        return (fds[0], fds[1])
    }

    private func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { Sys.send(fd, $0) }, bytes.count)
    }

    func testBothKindsAreTestedWhereTheyExist() {
        XCTAssertTrue(kinds.contains(.poll))
        XCTAssertTrue(kinds.contains(PollerKind.platformDefault))
    }

    func testReadableOnlyOnceDataArrivesAndWhileItIsUnread() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, b) = try socketPair()
            try poller.add(a, read: true, write: false)
            var events: [PollEvent] = []
            XCTAssertEqual(try poller.wait(timeoutMillis: 0, into: &events), 0, "\(kind): nothing sent yet")
            send(b, "hi")
            XCTAssertEqual(try poller.wait(timeoutMillis: 5000, into: &events), 1, "\(kind)")
            XCTAssertEqual(events, [PollEvent(fd: a, readable: true, writable: false, hangup: false)], "\(kind)")
            // Level-triggered: still reported until read.
            XCTAssertEqual(try poller.wait(timeoutMillis: 0, into: &events), 1, "\(kind)")
            var buffer = [UInt8](repeating: 0, count: 16)
            XCTAssertEqual(buffer.withUnsafeMutableBytes { Sys.recv(a, into: $0) }, 2, "\(kind)")
            XCTAssertEqual(try poller.wait(timeoutMillis: 0, into: &events), 0, "\(kind): read drained it")
        }
    }

    func testWriteInterestReportsAWritableSocket() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, _) = try socketPair()
            try poller.add(a, read: true, write: true)
            var events: [PollEvent] = []
            XCTAssertEqual(try poller.wait(timeoutMillis: 5000, into: &events), 1, "\(kind)")
            XCTAssertEqual(events.first?.fd, a, "\(kind)")
            XCTAssertEqual(events.first?.writable, true, "\(kind)")
            XCTAssertEqual(events.first?.readable, false, "\(kind)")
        }
    }

    func testModifyTurnsInterestOffAndOnAndRemoveStopsReports() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, b) = try socketPair()
            let (c, d) = try socketPair()
            try poller.add(a, read: true, write: false)
            try poller.add(c, read: true, write: false)
            send(b, "x")
            send(d, "y")
            var events: [PollEvent] = []
            XCTAssertEqual(Set(try waitAll(poller, &events).map(\.fd)), [a, c], "\(kind)")
            try poller.modify(a, read: false, write: false)
            XCTAssertEqual(try waitAll(poller, &events).map(\.fd), [c], "\(kind): a paused")
            try poller.modify(a, read: true, write: false)
            XCTAssertEqual(Set(try waitAll(poller, &events).map(\.fd)), [a, c], "\(kind): a resumed")
            poller.remove(c)
            XCTAssertEqual(try waitAll(poller, &events).map(\.fd), [a], "\(kind): c removed")
            poller.remove(c)  // unknown descriptors are ignored
            XCTAssertThrowsError(try poller.modify(c, read: true, write: false), "\(kind): modify of a removed fd")
        }
    }

    /// One contract for all backends: kqueue's EV_ADD would silently (re-)register, epoll and
    /// poll(2) refuse; every poller refuses a second add and a modify of a descriptor it never had.
    func testAddingTwiceAndModifyingAnUnknownDescriptorFail() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, b) = try socketPair()
            XCTAssertThrowsError(try poller.modify(a, read: true, write: false), "\(kind): modify before add")
            try poller.add(a, read: true, write: false)
            XCTAssertThrowsError(try poller.add(a, read: true, write: true), "\(kind): a second add")
            poller.remove(a)
            try poller.add(a, read: true, write: false)  // added again after its removal
            send(b, "z")
            var events: [PollEvent] = []
            XCTAssertEqual(try waitAll(poller, &events).map(\.fd), [a], "\(kind): watched again")
        }
    }

    /// The set KqueuePoller keeps for that contract (it runs on Darwin only; its set runs here too).
    func testWatchedDescriptorsTrackAddAndRemove() {
        var set = WatchedDescriptors()
        XCTAssertFalse(set.contains(3))
        XCTAssertTrue(set.insert(3))
        XCTAssertFalse(set.insert(3), "already watched")
        XCTAssertTrue(set.insert(1000), "grows past its size")
        XCTAssertTrue(set.contains(3) && set.contains(1000) && !set.contains(999))
        XCTAssertFalse(set.insert(-1), "negative descriptors are refused")
        XCTAssertFalse(set.contains(-1))
        XCTAssertTrue(set.remove(3))
        XCTAssertFalse(set.remove(3), "not watched any more")
        XCTAssertFalse(set.remove(5000), "never seen")
        XCTAssertTrue(set.insert(3), "watched again")
    }

    func testAPeerThatHangsUpIsReported() throws {
        for kind in kinds {
            let poller = try kind.make()
            var fds: [Int32] = [-1, -1]
            XCTAssertEqual(socketpair(AF_UNIX, Sys.streamType, 0, &fds), 0)
            defer { Sys.close(fds[0]) }
            try poller.add(fds[0], read: true, write: false)
            Sys.close(fds[1])
            var events: [PollEvent] = []
            XCTAssertEqual(try poller.wait(timeoutMillis: 5000, into: &events), 1, "\(kind)")
            XCTAssertEqual(events.first?.fd, fds[0], "\(kind)")
            XCTAssertTrue(events.first.map { $0.readable || $0.hangup } ?? false, "\(kind): \(events)")
            var buffer = [UInt8](repeating: 0, count: 4)
            XCTAssertEqual(buffer.withUnsafeMutableBytes { Sys.recv(fds[0], into: $0) }, 0, "\(kind): end of stream")
        }
    }

    func testWakeFromAnotherThreadEndsAWaitWithoutAnEvent() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, _) = try socketPair()
            try poller.add(a, read: true, write: false)
            let waker = Thread { poller.wake() }
            let started = Sys.monotonicNanos()
            waker.start()
            var events: [PollEvent] = []
            // Whether the wake lands before or during the wait, the wait ends with nothing to report.
            XCTAssertEqual(try poller.wait(timeoutMillis: 30_000, into: &events), 0, "\(kind)")
            XCTAssertLessThan(Sys.monotonicNanos() - started, 10_000_000_000, "\(kind): woken, not timed out")
            XCTAssertEqual(try poller.wait(timeoutMillis: 0, into: &events), 0, "\(kind): the wake-up was absorbed")
            // Several wake-ups before a wait are one.
            for _ in 0..<1000 { poller.wake() }
            XCTAssertEqual(try poller.wait(timeoutMillis: 30_000, into: &events), 0, "\(kind)")
            XCTAssertEqual(try poller.wait(timeoutMillis: 0, into: &events), 0, "\(kind): all absorbed")
        }
    }

    func testATimeoutReturnsNoEvents() throws {
        for kind in kinds {
            let poller = try kind.make()
            let (a, _) = try socketPair()
            try poller.add(a, read: true, write: false)
            var events = [PollEvent(fd: 99, readable: true, writable: false, hangup: false)]
            let started = Sys.monotonicNanos()
            XCTAssertEqual(try poller.wait(timeoutMillis: 20, into: &events), 0, "\(kind)")
            XCTAssertEqual(events, [], "\(kind): the previous batch is cleared")
            XCTAssertGreaterThanOrEqual(Sys.monotonicNanos() - started, 10_000_000, "\(kind): it waited")
        }
    }

    func testAKindThisSystemLacksFailsClearly() {
        for kind in PollerKind.allCases where !kind.isAvailable {
            XCTAssertThrowsError(try kind.make()) { error in
                XCTAssertTrue("\(error)".contains("no \(kind.rawValue)"), "\(error)")
                XCTAssertTrue("\(error)".contains("--poller"), "\(error)")
            }
        }
    }

    /// What one immediate wait reports, in any order.
    private func waitAll(_ poller: any Poller, _ events: inout [PollEvent]) throws -> [PollEvent] {
        _ = try poller.wait(timeoutMillis: 1000, into: &events)
        return events
    }
}
