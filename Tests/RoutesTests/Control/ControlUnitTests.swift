import Foundation
import HTTPServer
@testable import Routes
import XCTest
@testable import EmulationKit
@testable import MockControl

/// Pure parts of the control plane: patterns, redaction, the offset clock.
final class ControlUnitTests: XCTestCase {
    func testPathPatterns() {
        XCTAssertTrue(PathPattern("/api/users/sms").matches("/API/Users/SMS"))
        XCTAssertFalse(PathPattern("/api/users/sms").matches("/api/users/sms/x"))
        XCTAssertTrue(PathPattern("*").matches(""))
        XCTAssertTrue(PathPattern("/rows/*").matches("/rows/12"))
        XCTAssertFalse(PathPattern("/rows/*").matches("/rowsx"))
        XCTAssertTrue(PathPattern("/api/*/login").matches("/api/auth/login"))
        XCTAssertTrue(PathPattern("*login*").matches("/auth/login"))
        XCTAssertFalse(PathPattern("/a*b*c").matches("/acb"))
        XCTAssertTrue(PathPattern("/a*b*c").matches("/a-b-b-c"))
        XCTAssertFalse(PathPattern("/ab*ba").matches("/aba"))
    }

    func testRedactionOfEveryEncoding() {
        XCTAssertEqual(Redaction.json(#"{"email":"a@b.c","password":"hunter2","data":{"code":1234,"token":"abcdefgh"}}"#),
                       #"{"email":"a@b.c","password":"***","data":{"code":"***","token":"abcd…"}}"#)
        XCTAssertEqual(Redaction.json(#"{"Password" : "x\"y", "sequence_id": "S"}"#), #"{"Password" : "***", "sequence_id": "S"}"#)
        // Cut in the middle of a secret: still hidden.
        XCTAssertEqual(Redaction.json(#"{"password":"hunt"#), #"{"password":"***"#)
        XCTAssertEqual(Redaction.form("login=Test005&Password=s%20cret&code=1234&token=abcdefgh"),
                       "login=Test005&Password=***&code=***&token=abcd…")
        XCTAssertEqual(Redaction.header("Authorization", "Bearer 0123456789"), "Bearer 0123…")
        XCTAssertEqual(Redaction.header("authorization", "0123456789"), "0123…")
        XCTAssertEqual(Redaction.header("authorization", "abc"), "…")
        XCTAssertEqual(Redaction.header("Content-Type", "text/plain"), "text/plain")
        let body = "--B\r\nContent-Disposition: form-data; name=\"login\"\r\n\r\nme\r\n--B\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nsecret1\r\n--B--\r\n"
        let redacted = Redaction.body(Array(body.utf8), contentType: "multipart/form-data; boundary=B")
        XCTAssertFalse(redacted.contains("secret1"))
        XCTAssertTrue(redacted.contains("name=\"password\"\r\n\r\n***\r\n--B--"))
        XCTAssertTrue(redacted.contains("\r\n\r\nme\r\n"))
    }

    func testOffsetClockAddsToItsBaseAndNeverStacks() {
        let base = ManualClock()
        let clock = OffsetClock(base: base)
        clock.advance(by: 90)
        XCTAssertEqual(clock.now(), base.now().addingTimeInterval(90))
        let rewrapped = OffsetClock(base: clock)
        XCTAssertTrue((rewrapped.base as? ManualClock) === base)
        clock.reset()
        XCTAssertEqual(clock.now(), base.now())
        XCTAssertTrue(MockEnvironment(clock: base).clock is OffsetClock)
    }
}
