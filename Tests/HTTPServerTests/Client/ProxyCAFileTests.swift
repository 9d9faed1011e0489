import Foundation
import HTTPServer
import XCTest

/// `--proxy-ca-file` is read when the settings are made: a file that cannot be used stops the start.
final class ProxyCAFileTests: XCTestCase {
    private var folder: URL?

    override func tearDown() {
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    private func file(_ bytes: [UInt8]) throws -> String {
        let made = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ca-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        folder = made
        let path = made.appendingPathComponent("ca-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func problem(_ path: String) -> String? {
        do { _ = try ProxyCAFile(path: path); return nil } catch { return error.description }
    }

    func testAPEMFileKeepsItsPathAndCertificates() throws {
        let path = try file(Array(CertificateFileTests.pem.utf8))
        let ca = try ProxyCAFile(path: path)
        XCTAssertEqual(ca.path, path)
        XCTAssertEqual(ca.certificates, [try CertificateFileTests.der])
    }

    func testMissingFilesFoldersTooLargeAndEmptyFilesAreRefused() throws {
        XCTAssertEqual(problem("/nonexistent/ca.pem"), "no readable file there (No such file or directory)")
        let empty = try file([])
        XCTAssertEqual(problem(URL(fileURLWithPath: empty).deletingLastPathComponent().path), "not a file")
        XCTAssertEqual(problem(empty), "it holds no certificate: neither a PEM -----BEGIN CERTIFICATE----- block nor one DER certificate")
        let large = try file(Array(CertificateFileTests.pem.utf8) + [UInt8](repeating: 0x0A, count: CertificateFile.maxBytes))
        XCTAssertEqual(problem(large), "\(CertificateFile.maxBytes + CertificateFileTests.pem.utf8.count) bytes, more than a CA file's \(CertificateFile.maxBytes)")
    }

    func testADERFileIsForDarwinOnly() throws {
        let path = try file(try CertificateFileTests.der)
        #if canImport(Darwin)
        XCTAssertEqual(try ProxyCAFile(path: path).certificates, [try CertificateFileTests.der])
        #else
        XCTAssertEqual(problem(path), "a DER certificate, and OpenSSL reads PEM here: convert it with `openssl x509 -inform der -in FILE -out FILE.pem`")
        #endif
    }
}
