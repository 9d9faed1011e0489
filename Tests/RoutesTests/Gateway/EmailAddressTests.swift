import XCTest
@testable import GatewaySystem

/// The gateway's e-mail check, byte by byte.
final class EmailAddressTests: XCTestCase {
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
}
