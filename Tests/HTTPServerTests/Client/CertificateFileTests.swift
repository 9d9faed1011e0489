import HTTPServer
import XCTest

/// The CA file's certificates as DER (`--proxy-ca-file`): PEM blocks with anything around them, or
/// one DER certificate; a file without a certificate, or with a broken block, is an error.
final class CertificateFileTests: XCTestCase {
    /// A self-signed P-256 CA made with the openssl CLI for these tests (valid until 2126).
    static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBnjCCAUOgAwIBAgIUISbUjjUMBU/Es12rSIEaCKl+F4owCgYIKoZIzj0EAwIw
        IzEhMB8GA1UEAwwYbW9jay1zZXJ2ZXIgdW5pdC10ZXN0IENBMCAXDTI2MTIwNTEw
        MTUzMFoYDzIxMjYxMTExMTAxNTMwWjAjMSEwHwYDVQQDDBhtb2NrLXNlcnZlciB1
        bml0LXRlc3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAR0bfPUy8Fa3wn7
        ZeMc9ogTAwtfE3gqIp3M8pZQlHtilNn/xEJIoGd0qjsLtVyYwwWfgoTPGh1gPulO
        SiMOrl+vo1MwUTAdBgNVHQ4EFgQUeJ4UW9k/e2ijCVG0VMkEiDa7NSwwHwYDVR0j
        BBgwFoAUeJ4UW9k/e2ijCVG0VMkEiDa7NSwwDwYDVR0TAQH/BAUwAwEB/zAKBggq
        hkjOPQQDAgNJADBGAiEAl8ZWJKNoPHIAtVQCsdwLJlKexMDt88fteWnzT5XhjVQC
        IQCqQtNVTYiZGMcj42GCrxzVb+7dMT0q2zGgzfZbVK/v9A==
        -----END CERTIFICATE-----

        """

    /// The certificate's DER: `openssl x509 -outform der` of `pem` is 418 bytes, SEQUENCE with a two-byte length.
    static var der: [UInt8] {
        get throws {
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return try XCTUnwrap(Base64.decode(body))
        }
    }

    private func certificates(_ text: String) throws -> (der: [[UInt8]], encoding: CertificateFile.Encoding) {
        try CertificateFile.certificates(in: Array(text.utf8))
    }

    private func problem(_ bytes: [UInt8]) -> String? {
        do { _ = try CertificateFile.certificates(in: bytes); return nil } catch { return error.description }
    }

    func testOnePEMCertificateIsItsDER() throws {
        let der = try Self.der
        XCTAssertEqual(der.count, 418)
        XCTAssertEqual(Array(der.prefix(4)), [0x30, 0x82, 0x01, 0x9E])
        let found = try certificates(Self.pem)
        XCTAssertEqual(found.der, [der])
        XCTAssertEqual(found.encoding, .pem)
    }

    func testSeveralCertificatesWithTextBetweenAndOtherBlocksAreTakenInOrder() throws {
        let second = """
            -----BEGIN CERTIFICATE-----
            AAECAw==
            -----END CERTIFICATE-----
            """
        let key = "-----BEGIN PRIVATE KEY-----\nnot even base64 !!\n-----END PRIVATE KEY-----\n"
        let text = "subject=CN = mock-server unit-test CA\nissuer=…\n" + Self.pem + "\n# a comment\n" + key + second + "\ntrailing words"
        let found = try certificates(text)
        XCTAssertEqual(found.der, [try Self.der, [0, 1, 2, 3]], "the private key's block is skipped, not decoded")
        XCTAssertEqual(found.encoding, .pem)
    }

    func testCRLFLinesAndBlanksInTheBase64AreRead() throws {
        let crlf = Self.pem.replacingOccurrences(of: "\n", with: "\r\n")
        XCTAssertEqual(try certificates(crlf).der, [try Self.der])
        let indented = "-----BEGIN CERTIFICATE-----  \r\n  AAEC Aw==\t\r\n-----END CERTIFICATE-----\r\n"
        XCTAssertEqual(try certificates(indented).der, [[0, 1, 2, 3]])
    }

    func testOneDERCertificateIsTakenAsItIs() throws {
        let der = try Self.der
        let found = try CertificateFile.certificates(in: der)
        XCTAssertEqual(found.der, [der])
        XCTAssertEqual(found.encoding, .der)
        XCTAssertNotNil(problem(der + [0]), "a byte after the DER value is not one certificate")
        XCTAssertNotNil(problem(Array(der.dropLast())), "a short DER value is not one certificate")
    }

    func testAFileWithoutACertificateIsAnError() {
        XCTAssertEqual(problem([]), "it holds no certificate: neither a PEM -----BEGIN CERTIFICATE----- block nor one DER certificate")
        XCTAssertNotNil(problem(Array("just text\n".utf8)))
        XCTAssertNotNil(problem(Array("-----BEGIN PRIVATE KEY-----\nAAECAw==\n-----END PRIVATE KEY-----\n".utf8)))
        XCTAssertNotNil(problem(Array("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n".utf8)), "an empty block")
    }

    func testBrokenBlocksAreErrorsThatSayWhere() {
        XCTAssertEqual(problem(Array("\n-----BEGIN CERTIFICATE-----\nAAEC*w==\n-----END CERTIFICATE-----\n".utf8)),
                       "the certificate of line 2 is not Base64")
        XCTAssertEqual(problem(Array("-----BEGIN CERTIFICATE-----\nAAECAw=\n-----END CERTIFICATE-----\n".utf8)),
                       "the certificate of line 1 is not Base64", "wrong padding")
        XCTAssertEqual(problem(Array("-----BEGIN CERTIFICATE-----\nAAECAw==\n".utf8)),
                       "the CERTIFICATE block of line 1 has no END line")
        XCTAssertEqual(problem(Array("-----BEGIN CERTIFICATE-----\nAAECAw==\n-----BEGIN CERTIFICATE-----\n".utf8)),
                       "the CERTIFICATE block of line 1 has no END line")
        XCTAssertEqual(problem(Array("AAECAw==\n-----END CERTIFICATE-----\n".utf8)), "line 2 ends a block that was not begun")
        XCTAssertEqual(problem(Array("-----BEGIN CERTIFICATE-----\nAAECAw==\n-----END X509 CRL-----\n".utf8)),
                       "line 3 ends a block that was not begun")
    }
}
