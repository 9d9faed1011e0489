import XCTest
import HTTPServer

final class SHA1Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func testABC() {
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    func testTwoBlockMessage() {
        // RFC 3174 test 2 (448 bits: the padding needs a second block).
        let input = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        XCTAssertEqual(hex(SHA1.hash(input.utf8)), "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    func testOneMillionA() {
        XCTAssertEqual(hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000))),
                       "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testEmpty() {
        XCTAssertEqual(hex(SHA1.hash([UInt8]())), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    func testPaddingBoundaries() {
        // 55, 56 and 64 bytes cross the one-or-two padding block boundary.
        XCTAssertEqual(hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 55))), "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        XCTAssertEqual(hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 56))), "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        XCTAssertEqual(hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 64))), "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }
}
