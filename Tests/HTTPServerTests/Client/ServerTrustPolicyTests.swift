import Foundation
import HTTPServer
import XCTest

/// One reading of the trust settings for both clients: trusting a host wins over the CA file; the
/// host a TLS challenge names (URLSession) is matched as the URL writes it.
final class ServerTrustPolicyTests: XCTestCase {
    func testTrustAllThenTrustedHostThenCAFileThenSystem() throws {
        var settings = OutboundSettings()
        XCTAssertEqual(settings.trustPolicy(forHost: "localhost"), .system)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("policy-ca-\(UUID().uuidString).pem").path
        try CertificateFileTests.pem.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ca = try ProxyCAFile(path: path)
        settings.caFile = ca
        XCTAssertEqual(settings.trustPolicy(forHost: "localhost"), .systemAndCAFile(ca))
        settings.trustedTargets = ["localhost", "[::1]"]
        XCTAssertEqual(settings.trustPolicy(forHost: "localhost"), .unverified(flag: "--trust-proxy-target localhost"))
        XCTAssertEqual(settings.trustPolicy(forHost: "127.0.0.1"), .systemAndCAFile(ca), "a trusted name does not cover its address")
        settings.trustAllTargets = true
        XCTAssertEqual(settings.trustPolicy(forHost: "127.0.0.1"), .unverified(flag: "--trust-all-proxy-targets"))
    }

    func testAChallengesHostIsMatchedAsTheURLWritesIt() {
        var settings = OutboundSettings()
        settings.trustedTargets = ["localhost", "[::1]"]
        XCTAssertEqual(settings.trustPolicy(forChallengeHost: "LocalHost"), .unverified(flag: "--trust-proxy-target localhost"))
        XCTAssertEqual(settings.trustPolicy(forChallengeHost: "::1"), .unverified(flag: "--trust-proxy-target [::1]"))
        XCTAssertEqual(settings.trustPolicy(forChallengeHost: "[::1]"), .unverified(flag: "--trust-proxy-target [::1]"))
        XCTAssertEqual(settings.trustPolicy(forChallengeHost: "::2"), .system)
    }
}
