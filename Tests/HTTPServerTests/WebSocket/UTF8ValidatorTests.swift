import XCTest
import HTTPServer
import TestSupport

final class UTF8ValidatorTests: XCTestCase {
    private func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { UTF8Validator.isValid($0) }
    }

    /// The reference: the standard library's own decoder (`transcode`, via `validatedUTF8`).
    /// Not `String(validating:as:)`: Darwin has it only from macOS 15 / iOS 18.
    private func reference(_ bytes: [UInt8]) -> Bool {
        validatedUTF8(bytes) != nil
    }

    func testAgreesWithStandardLibraryOnTwoByteSequencesAndLeads() {
        // Every 1- and 2-byte sequence, and every lead byte followed by valid-looking tails.
        for a in 0...255 {
            let one = [UInt8(a)]
            XCTAssertEqual(isValid(one), reference(one), "\(one)")
            for b in 0...255 {
                let two = [UInt8(a), UInt8(b)]
                XCTAssertEqual(isValid(two), reference(two), "\(two)")
            }
            for tail: [UInt8] in [[0x80, 0x80], [0x9F, 0xBF], [0xA0, 0x80], [0x80, 0x80, 0x80], [0x8F, 0xBF, 0xBF], [0x90, 0x80, 0x80]] {
                let bytes = [UInt8(a)] + tail
                XCTAssertEqual(isValid(bytes), reference(bytes), "\(bytes)")
            }
        }
    }

    func testIncrementalAcrossChunks() {
        var validator = UTF8Validator()
        let text = Array("aé€😀 long enough to use the ASCII fast path".utf8)
        for byte in text {
            XCTAssertTrue([byte].withUnsafeBufferPointer { validator.validate($0) })
        }
        XCTAssertTrue(validator.isComplete)
        XCTAssertTrue([0xF0, 0x9F].withUnsafeBufferPointer { validator.validate($0) })
        XCTAssertFalse(validator.isComplete, "inside a 4-byte sequence")
        XCTAssertFalse([0x41].withUnsafeBufferPointer { validator.validate($0) }, "ASCII cannot continue a sequence")
    }

    func testFastPathStopsAtFirstHighByte() {
        XCTAssertFalse(isValid(Array("01234567890123456789".utf8) + [0xFF] + Array("0123456789".utf8)))
        XCTAssertTrue(isValid(Array("0123456789012345€6789".utf8)))
    }
}
