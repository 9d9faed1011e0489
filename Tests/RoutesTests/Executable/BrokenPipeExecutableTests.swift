import Foundation
import XCTest
import MockTestSupport
import TestSupport

/// Issue 20 §7: the log's reader going away (`mock-server 2>&1 | head -1`) leaves the server running.
final class BrokenPipeExecutableTests: XCTestCase {
    func testTheServerOutlivesTheReaderOfItsLog() throws {
        // `2>&1`: the log shares the banner's pipe, which is closed once its first line is read.
        let server = try TestExecutable(["--port", "0", "--log-level", "info"], shell: "exec 2>&1")
        let port = try server.bannerPort()
        try server.output.fileHandleForReading.close()
        for _ in 0..<3 {
            // Each request writes a log line into the broken pipe (EPIPE, no SIGPIPE death).
            let client = try TestHTTPClient(port: port)
            try client.sendRequest("GET", "/__mock/health")
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        XCTAssertTrue(server.process.isRunning)
        server.signal(SIGTERM)
        let status = try server.exitStatus()
        XCTAssertEqual(server.process.terminationReason, .exit, "not killed by a signal")
        XCTAssertEqual(status, 0)
    }
}
