import Foundation
import XCTest
import TestSupport
import HTTPServer
@testable import Routes
@testable import StatePersistence

/// The coalescing writer thread, with the write replaced by a counter the test controls.
final class StateWriterTests: XCTestCase {
    /// Changes that arrive while a write is in progress all share the next write.
    func testABurstDuringAWriteIsCoalescedIntoOneMoreWrite() {
        let writes = Locked(0)
        let gate = DispatchSemaphore(value: 0)
        let writer = StateWriter(interval: 0) {
            let n = writes.withLock { w -> Int in w += 1; return w }
            if n == 1 { gate.wait() }   // hold the first write until the burst has arrived
            return true
        }
        writer.start()
        defer { writer.stop() }
        writer.poke()
        waitUntil("the first write to start") { writes.withLock { $0 } == 1 }
        for _ in 0..<100 { writer.poke() }
        gate.signal()
        writer.flush()
        XCTAssertEqual(writes.withLock { $0 }, 2)
    }

    func testWritesStartAtMostOncePerIntervalAndNothingIsLeftUnwritten() {
        let writes = Locked(0)
        let interval: TimeInterval = 0.02
        let writer = StateWriter(interval: interval) { writes.withLock { $0 += 1 }; return true }
        writer.start()
        defer { writer.stop() }
        // Pokes that each wait for the previous write: every one needs its own write. The start
        // times are the writer's own (a time taken inside the write body would add that thread's
        // scheduling jitter, which once made two bodies 19.98 ms apart under ASan).
        var starts: [UInt64] = []
        for k in 1...5 {
            writer.poke()
            waitUntil("write \(k)") { writes.withLock { $0 } == k }
            starts.append(writer.lastWriteStart ?? 0)
        }
        for (a, b) in zip(starts, starts.dropFirst()) {
            XCTAssertGreaterThanOrEqual(b &- a, UInt64(interval * 1e9))
        }
    }

    func testFlushWritesAtOnceWithoutWaitingForTheInterval() {
        let writes = Locked(0)
        // An interval no test could wait out: flush must not wait for it.
        let writer = StateWriter(interval: 3600) { writes.withLock { $0 += 1 }; return true }
        writer.start()
        defer { writer.stop() }
        writer.poke()
        writer.flush()
        writer.poke()
        writer.flush()
        XCTAssertEqual(writes.withLock { $0 }, 2)
    }

    func testAFailedWriteIsRetriedWithoutAnotherChange() {
        let attempts = Locked(0)
        let writer = StateWriter(interval: 0) { attempts.withLock { a -> Bool in a += 1; return a >= 3 } }
        writer.start()
        defer { writer.stop() }
        writer.poke()
        waitUntil("the third attempt") { attempts.withLock { $0 } >= 3 }
        writer.flush()
        XCTAssertEqual(attempts.withLock { $0 }, 3, "no more attempts once one succeeded")
    }
}
