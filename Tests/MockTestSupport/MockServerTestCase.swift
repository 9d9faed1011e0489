import TestSupport
import XCTest

/// A test case with a fresh mock (repository seed, manual clock) on an ephemeral port per test.
open class MockServerTestCase: XCTestCase {
    package var server: TestServer!

    open override func setUpWithError() throws {
        try super.setUpWithError()
        server = try TestServer()
    }

    open override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }
}
