import Foundation
import XCTest
@testable import EmulationKit

/// ISO 8601 written from integers agrees with the C library's `gmtime_r`.
final class ISO8601Tests: XCTestCase {
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
}
