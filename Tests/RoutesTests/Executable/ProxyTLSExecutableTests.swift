import Foundation
import MockTestSupport
import TestSupport
import XCTest

/// The TLS flags as the executable reads them: `--proxy-all https://…` with `--proxy-ca-file`,
/// `--trust-proxy-target` repeated, and the refusal of a CA file that is not there or holds no certificate.
final class ProxyTLSExecutableTests: XCTestCase {
    func testProxyAllToAnHTTPSUpstreamWithTheCAFileAndRepeatedTrustFlags() throws {
        let up = try HTTPSUpstream()
        defer { up.stop() }
        let verified = try TestExecutable(["--port", "0", "--log-level", "info", "--proxy-all", "https://localhost:\(up.port)", "--proxy-ca-file", up.caFile])
        let client = try TestHTTPClient(port: try verified.bannerPort())
        try client.sendRequest("GET", "/hello")
        let answer = try client.readResponse()
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(answer.text, "hello over tls, SNI localhost")
        verified.signal(SIGTERM)
        let (verifiedStatus, verifiedLog) = try verified.finish()
        XCTAssertEqual(verifiedStatus, 0, verifiedLog)

        let trusted = try TestExecutable(["--port", "0", "--log-level", "info", "--proxy-all", "https://localhost:\(up.port)",
                                          "--trust-proxy-target", "elsewhere.test", "--trust-proxy-target", "LOCALHOST"])
        let second = try TestHTTPClient(port: try trusted.bannerPort())
        try second.sendRequest("GET", "/hello")
        XCTAssertEqual(try second.readResponse().status, 200, "the second --trust-proxy-target adds to the first")
        trusted.signal(SIGTERM)
        let (status, log) = try trusted.finish()
        XCTAssertEqual(status, 0, log)
        XCTAssertTrue(log.contains("its certificate is not verified (--trust-proxy-target localhost)"), log)
    }

    func testAMissingCAFileIsAUsageError() throws {
        let (status, message) = try TestExecutable(["--proxy-ca-file", "/nonexistent/ca.pem"]).finish()
        XCTAssertEqual(status, 64)
        XCTAssertTrue(message.contains("--proxy-ca-file /nonexistent/ca.pem"), message)
    }

    func testACAFileWithoutACertificateIsAUsageError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-cert-\(UUID().uuidString).pem").path
        try "-----BEGIN PRIVATE KEY-----\nAAECAw==\n-----END PRIVATE KEY-----\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, message) = try TestExecutable(["--proxy-ca-file", path]).finish()
        XCTAssertEqual(status, 64)
        XCTAssertTrue(message.contains("--proxy-ca-file \(path): it holds no certificate"), message)
    }
}
