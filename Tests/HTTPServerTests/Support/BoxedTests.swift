@testable import HTTPServer
import XCTest

/// A closure kept in `Locked` goes in a `Boxed`: read through `withLock` as often as a long-lived
/// server reads its handlers, it is still called directly (a bare closure gained two thunks per
/// access and overflowed the stack after some tens of thousands).
final class BoxedTests: XCTestCase {
    func testABoxedClosureReadManyTimesThroughLockedStaysCallable() {
        let locked = Locked<Boxed<@Sendable (Int) -> Int>?>(Boxed { $0 + 1 })
        var total = 0
        for i in 0..<200_000 { total &+= locked.withLock { $0 }?.value(i) ?? 0 }
        XCTAssertEqual(total, (0..<200_000).reduce(0) { $0 + $1 + 1 })
        locked.withLock { $0 = nil }
        XCTAssertNil(locked.withLock { $0 })
    }
}
