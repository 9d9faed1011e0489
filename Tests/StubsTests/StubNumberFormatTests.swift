import Foundation
import XCTest
import HTTPServer
@testable import Stubs

/// `numberFormat` against what WireMock 2.35.1 answered for the same templates (English locales).
final class StubNumberFormatTests: XCTestCase {
    private func render(_ text: String) throws -> String {
        let template = try StubTemplate(text, at: "/response/body")
        var scope = StubRenderScope(StubRequest(method: "GET", url: "/n?x=12.5", headers: HTTPHeaders(), body: []), now: Date(timeIntervalSince1970: 0))
        return String(decoding: try template.render(&scope, limit: 1 << 20), as: UTF8.self)
    }

    func testStylesAndLocales() throws {
        XCTAssertEqual(try render("{{numberFormat 1234.5678}}"), "1,234.568")
        XCTAssertEqual(try render("{{numberFormat 1234.5678 'integer'}} {{numberFormat 1234.5678 ' Integer '}}"), "1,235 1,235")
        XCTAssertEqual(try render("{{numberFormat 1234.5678 'currency'}} {{numberFormat -1234.5678 'currency'}}"), "¤1,234.57 -¤1,234.57")
        XCTAssertEqual(try render("{{numberFormat 1234.5678 'currency' 'en_US'}} {{numberFormat 1234.5678 'currency' 'en_GB'}}"), "$1,234.57 £1,234.57")
        XCTAssertEqual(try render("{{numberFormat 1234.5 'currency' ''}}"), "¤\u{a0}1,234.50")
        XCTAssertEqual(try render("{{numberFormat 0.256 'percent'}} {{numberFormat 1234567 'percent'}}"), "26% 123,456,700%")
        XCTAssertEqual(try render("{{numberFormat 12345678901234}} {{numberFormat 0.0001}} {{numberFormat -0.4 'integer'}}"), "12,345,678,901,234 0 -0")
    }

    func testPatterns() throws {
        XCTAssertEqual(try render("{{numberFormat 1234.5 '###,###.00'}}"), "1,234.50")
        XCTAssertEqual(try render("{{numberFormat 1234.5678 'xx#.#'}}"), "xx1234.6")
        XCTAssertEqual(try render("{{numberFormat 0.1 '0.00'}} {{numberFormat 5 '00.##'}} {{numberFormat 0.5 '#%'}}"), "0.10 05 50%")
        XCTAssertEqual(try render("{{numberFormat -1234.5 '#,##0.00;(#,##0.00)'}}"), "(1,234.50)")
        XCTAssertEqual(try render("{{numberFormat 0.5 '#.#'}} {{numberFormat 0.05 '#.#'}} {{numberFormat 1234 '#,##0.'}}"), "0.5 0.1 1,234.")
        XCTAssertEqual(try render("{{numberFormat 0.005 '0.00' roundingMode='UP'}}"), "0.01")
        // Exponents are not built in: refused, never formatted differently.
        XCTAssertThrowsError(try render("{{numberFormat 1 '0.0E0'}}"))
    }

    /// HALF_EVEN by default, on the double's exact value when its shortest digits tie.
    func testRoundingAndOptions() throws {
        XCTAssertEqual(try render("{{numberFormat 2.5 'integer'}}{{numberFormat 3.5 'integer'}}{{numberFormat 2.5 'integer' roundingMode='HALF_UP'}}"), "243")
        XCTAssertEqual(try render("{{numberFormat 0.125 maximumFractionDigits=2}} {{numberFormat 1.005 '0.00'}}"), "0.12 1.00")
        XCTAssertEqual(try render("{{numberFormat 0.3 '0.0' roundingMode='DOWN'}} {{numberFormat 1234.5678 roundingMode='DOWN'}}"), "0.3 1,234.567")
        XCTAssertEqual(try render("{{numberFormat 12.5 minimumIntegerDigits=5}} {{numberFormat 1234.5 maximumIntegerDigits=2}}"), "00,012.5 34.5")
        XCTAssertEqual(try render("{{numberFormat 12.5 minimumFractionDigits=4}} {{numberFormat 1234.5 'integer' groupingUsed=false}}"), "12.5000 1234")
        XCTAssertEqual(try render("{{numberFormat 1234.5 'percent' maximumFractionDigits=1}}"), "123,450%")
        XCTAssertThrowsError(try render("{{numberFormat 1234.5 roundingMode='bogus'}}"))
        XCTAssertThrowsError(try render("{{numberFormat 1234.5 maximumFractionDigits='2'}}"))
        XCTAssertThrowsError(try render("{{numberFormat 1234.5 'integer' roundingMode='UNNECESSARY'}}"))
    }

    /// A string is no number: handlebars.java answers the format parameter, or nothing.
    func testNotANumberAndUnknownLocales() throws {
        XCTAssertEqual(try render("[{{numberFormat 'abc'}}] {{numberFormat request.query.x 'integer'}}"), "[] integer")
        XCTAssertThrowsError(try render("{{numberFormat 1234.5 'integer' 'de_DE'}}")) { error in
            XCTAssertTrue((error as? StubRenderFailure)?.reason.contains("de_DE") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try render("{{numberFormat 1234.5 'integer' 'en-GB'}}"))
    }
}
