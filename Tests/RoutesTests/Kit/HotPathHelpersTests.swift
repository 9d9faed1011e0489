import Foundation
import HTTPServer
import XCTest
@testable import Routes
@testable import EmulationKit
@testable import GatewaySystem
@testable import RowsSystem

/// The byte-level helpers of the hot paths agree with the general code they replaced.
final class HotPathHelpersTests: XCTestCase {
    func testISO8601AgreesWithGmtime() {
        // Both sides of the epoch, leap days, century years (2100 is not a leap year, 2000 is).
        var times: [Int] = [0, -1, 86_399, 86_400, -86_400, 951_782_400, 951_868_800, 4_107_542_400, 4_107_628_800,
                            1_795_000_000, -2_208_988_800, 253_402_300_799]
        var t = -2_000_000_000
        while t < 4_000_000_000 { times.append(t); t += 7_777_777 }
        for time in times {
            var raw = time_t(time)
            var parts = tm()
            gmtime_r(&raw, &parts)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                                  parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
            XCTAssertEqual(ISO8601.string(Date(timeIntervalSince1970: Double(time) + 0.75)), expected, "t = \(time)")
        }
    }

    func testEmailAddressRules() {
        for valid in ["a@b.c", "fpi@bk.ru", "first.last+tag@mail.example.co.uk", "ü@exämple.de"] {
            XCTAssertTrue(EmailAddress.isValid(valid), valid)
        }
        for invalid in ["", "@b.c", "a@", "a@b", "a@b.", "a@.b", "a@b..c", "a@@b.c", "a@b@c.d", "a b@c.d", "a@b.c ",
                        "a,b@c.d", "a;b@c.d", "a\u{7F}@b.c", "a@b.c\t", String(repeating: "a", count: 250) + "@b.cd"] {
            XCTAssertFalse(EmailAddress.isValid(invalid), invalid)
        }
        XCTAssertTrue(EmailAddress.isValid(String(repeating: "a", count: 249) + "@b.cd"), "254 bytes")
    }

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

    /// The rows login body written in place is the JSON an interpolated String would give.
    func testTheRowsLoginBodyIsTheTokenAsJSON() {
        for (high, low) in [(UInt64(0), UInt64(0)), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210), (UInt64.max, UInt64.max)] {
            let body = RowsLoginBody.bytes(high: high, low: low)
            var uuid: [UInt8] = []
            UUIDText.append(high: high, low: low, to: &uuid)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "{\"token\":\"\(String(decoding: uuid, as: UTF8.self))\"}")
            XCTAssertEqual(JSONValue.parse(body)?["token"]?.string?.count, 36)
        }
    }
}
