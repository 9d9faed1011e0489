import XCTest
import HTTPServer

/// FIPS 180-4 examples and RFC 4231's HMAC-SHA256 test cases.
final class SHA256Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func testDigests() {
        XCTAssertEqual(hex(SHA256.hash([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 448 bits: the padding needs a second block.
        XCTAssertEqual(hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(SHA256.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000))),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testRFC4231Cases() {
        // Case 1: a 20-byte key.
        XCTAssertEqual(hex(HMACSHA256.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // Case 2: a key shorter than the output.
        XCTAssertEqual(hex(HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Case 3: 50 bytes of 0xdd under 20 bytes of 0xaa.
        XCTAssertEqual(hex(HMACSHA256.authenticate([UInt8](repeating: 0xdd, count: 50), key: [UInt8](repeating: 0xaa, count: 20))),
                       "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
        // Case 4: a 25-byte counting key.
        XCTAssertEqual(hex(HMACSHA256.authenticate([UInt8](repeating: 0xcd, count: 50), key: Array(1...25))),
                       "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        // Case 6: a key longer than the block (hashed first).
        XCTAssertEqual(hex(HMACSHA256.authenticate(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                                                   key: [UInt8](repeating: 0xaa, count: 131))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // Case 7: key and data both longer than the block.
        let data = "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
        XCTAssertEqual(hex(HMACSHA256.authenticate(Array(data.utf8), key: [UInt8](repeating: 0xaa, count: 131))),
                       "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    func testConstantTimeEquals() {
        XCTAssertTrue(HMACSHA256.constantTimeEquals(Array("secret-token".utf8), Array("secret-token".utf8)))
        XCTAssertFalse(HMACSHA256.constantTimeEquals(Array("secret-token".utf8), Array("secret-tokeN".utf8)))
        XCTAssertFalse(HMACSHA256.constantTimeEquals(Array("secret".utf8), Array("secret-token".utf8)))
        XCTAssertFalse(HMACSHA256.constantTimeEquals(Array("secret-token".utf8), Array("secret".utf8)))
        XCTAssertFalse(HMACSHA256.constantTimeEquals([UInt8](), Array("x".utf8)))
        XCTAssertTrue(HMACSHA256.constantTimeEquals([UInt8](), [UInt8]()))
        // Lengths 256 apart: the length's low byte alone must not decide.
        XCTAssertFalse(HMACSHA256.constantTimeEquals([UInt8](repeating: 1, count: 1), [UInt8](repeating: 1, count: 257)))
    }
}
