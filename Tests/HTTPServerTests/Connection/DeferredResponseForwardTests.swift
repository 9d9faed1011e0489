import XCTest
@testable import HTTPServer

/// `DeferredResponse.forward`: a wrapper (the durability gate) takes the completion instead of a
/// connection, whether it came before or after, and a cancel reaches the forwarded promise.
final class DeferredResponseForwardTests: XCTestCase {
    func testACompletionAfterTheForwardGoesToTheWrapper() {
        let inner = DeferredResponse(timeoutNanos: 1_000_000_000)
        let got = Locked<[Int]>([])
        inner.forward { response in got.withLock { $0.append(response?.status.code ?? 0) } }
        XCTAssertTrue(inner.isPending)
        XCTAssertTrue(inner.complete(.empty(.created)))
        XCTAssertFalse(inner.complete(), "once only")
        XCTAssertEqual(got.withLock { $0 }, [201])
        XCTAssertFalse(inner.isPending)
    }

    func testACompletionBeforeTheForwardIsHandedOverAtOnce() {
        let inner = DeferredResponse(timeoutNanos: 1_000_000_000)
        inner.complete()
        let got = Locked<[Int]>([])
        inner.forward { response in got.withLock { $0.append(response?.status.code ?? 0) } }
        XCTAssertEqual(got.withLock { $0 }, [0], "nil: the handler's own answer")
    }

    func testACancelReachesAForwardedPromise() {
        let cancelled = Locked(0)
        let inner = DeferredResponse(timeoutNanos: 1_000_000_000, onCancel: { cancelled.withLock { $0 += 1 } })
        inner.forward { _ in XCTFail("cancelled: never completed") }
        inner.cancel()
        XCTAssertEqual(cancelled.withLock { $0 }, 1)
        XCTAssertFalse(inner.complete())
    }
}
