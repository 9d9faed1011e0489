import XCTest
import HTTPServer

final class Base64Tests: XCTestCase {
    /// RFC 4648 §10.
    private let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    func testEncodeRFC4648Vectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded, plain)
        }
    }

    func testDecodeRFC4648Vectors() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
        }
    }

    func testRoundTripAllByteValues() {
        let bytes = (0...255).map { UInt8($0) }
        for count in [1, 2, 3, 100, 256] {
            let slice = Array(bytes.prefix(count))
            XCTAssertEqual(Base64.decode(Base64.encode(slice)), slice)
        }
        XCTAssertEqual(Base64.encode([0xFB, 0xFF]), "+/8=")
    }

    func testRejectsInvalidInput() {
        for bad in ["Zg=", "Zm9", "Z===", "Zg==Zg==", "Zm=v", "Zm9v!A==", "Zm9 v", "=Zm9", "Zm9v\n", "é123"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
    }
}
