import Foundation
import XCTest
@testable import HTTPServer

/// The server's threads ask for their stack size instead of taking the platform's: Darwin's
/// default for a secondary thread is 512 KiB, glibc's `ulimit -s`. Under `scripts/darwin-like.sh`
/// (`ulimit -s 512`) a thread with default attributes would overflow here.
final class DetachedThreadTests: XCTestCase {
    /// 1 KiB of stack per frame that the optimiser cannot drop: it is written and read back.
    private struct Frame {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    private static func descend(_ levels: Int) -> UInt64 {
        var frames = (Frame(), Frame(), Frame(), Frame(), Frame(), Frame(), Frame(), Frame())
        frames.0.words.0 = UInt64(levels)
        frames.7.words.15 = UInt64(levels)
        guard levels > 0 else { return frames.0.words.0 }
        return descend(levels - 1) &+ frames.0.words.0 &+ frames.7.words.15
    }

    func testAThreadHasTheStackItAskedFor() {
        // 640 levels of 1 KiB or more (about 2.2 KiB in a debug build): more than Darwin's
        // default, less than what is asked.
        let levels = 640
        let done = DispatchSemaphore(value: 0)
        let result = Locked<UInt64?>(nil)
        DetachedThread.start(name: "stack test") {
            let sum = DetachedThreadTests.descend(levels)
            result.withLock { $0 = sum }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        // Each level adds its own count twice: 2 × (1 + … + 640).
        XCTAssertEqual(result.withLock { $0 }, UInt64(levels * (levels + 1)))
    }
}
