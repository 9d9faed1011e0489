import Foundation
import XCTest
@testable import EmulationKit

/// UUID text written and parsed from two words agrees with Foundation's `UUID` and with itself.
final class UUIDTextTests: XCTestCase {
    func testUUIDTextRoundTrip() throws {
        let words: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210)]
        for (high, low) in words {
            let text = UUIDText.format(high: high, low: low)
            XCTAssertEqual(text, UUID(uuidString: text)?.uuidString.lowercased())
            let stamped = UUIDText.stamp(high: high, low: low)
            let parsed = try XCTUnwrap(UUIDText.parse(text))
            XCTAssertTrue(parsed == stamped)
            XCTAssertTrue(try XCTUnwrap(UUIDText.parse(text.uppercased())) == stamped)
            XCTAssertTrue(try XCTUnwrap(UUIDText.parseLowercase(text)) == stamped)
            var bytes: [UInt8] = [1]
            UUIDText.append(high: high, low: low, to: &bytes)
            XCTAssertEqual(bytes, [1] + Array(text.utf8))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let (high, low) = UUIDText.stamp(high: generator.next(), low: generator.next())
            func hex(_ w: UInt64) -> String { String(repeating: "0", count: 16 - String(w, radix: 16).count) + String(w, radix: 16) }
            var expected = Array(hex(high) + hex(low))
            for dash in [8, 13, 18, 23] { expected.insert("-", at: dash) }
            XCTAssertEqual(UUIDText.format(high: high, low: low), String(expected))
        }
        XCTAssertNil(UUIDText.parseLowercase("0123456A-89ab-4def-8123-456789abcdef"))
        // The eight-at-a-time parse agrees with the digit-by-digit one for every ASCII byte in every place.
        let base = Array("0123456789ab-cdef-0a1b-2c3d-4e5f6789abcd".utf8.prefix(8)) + Array("-89ab-4def-8123-456789abcdef".utf8)
        for position in 0..<base.count {
            for byte in UInt8(0)...0x7F {
                var bytes = base
                bytes[position] = byte
                let text = String(decoding: bytes, as: UTF8.self)
                let hasUpper = bytes.contains { $0 >= 65 && $0 <= 90 }
                let expected = hasUpper ? nil : UUIDText.parse(text)
                let actual = UUIDText.parseLowercase(text)
                XCTAssertTrue(actual?.high == expected?.high && actual?.low == expected?.low, "\(text)")
            }
        }
        XCTAssertNil(UUIDText.parse("0123456g-89ab-4def-8123-456789abcdef"))
        XCTAssertNil(UUIDText.parse("0123456789ab-4def-8123-456789abcdef-"))
    }
}
