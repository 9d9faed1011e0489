import HTTPServer
import XCTest
@testable import EmulationKit
@testable import RowsSystem

/// The rows login body, written into bytes without a String.
final class RowsLoginBodyTests: XCTestCase {
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
