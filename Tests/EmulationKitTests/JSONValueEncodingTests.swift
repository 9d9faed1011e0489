import Foundation
import XCTest
import HTTPServer
import MockAdminWire
@testable import EmulationKit

/// The admin listings come from the wire types with their members in the order the server always
/// wrote them (the events stream and `POST /__mock/instances` are not re-sorted).
final class JSONValueEncodingTests: XCTestCase {
    /// 2026-11-22T11:14:30Z.
    private let moment = Date(timeIntervalSince1970: 1_795_346_070)

    private func text<T: Encodable>(_ value: T) throws -> String { try JSONValue(encoding: value).jsonText }

    func testAFaultRuleKeepsItsMemberOrderAndItsNulls() throws {
        let rule = MockFaultRule(id: 7, method: nil, path: "/api/*", system: nil, times: 2, remaining: 1,
                                 action: .respond(status: 503, body: "down", headers: ["X-B": "2", "Retry-After": "1"]))
        XCTAssertEqual(try text(rule), #"{"id":7,"method":null,"path":"/api/*","system":null,"times":2,"remaining":1,"action":{"status":503,"body":"down","headers":{"Retry-After":"1","X-B":"2"}}}"#)
        XCTAssertEqual(try text(MockFaultAction.respond(status: 500)), #"{"status":500}"#)
        XCTAssertEqual(try text(MockFaultAction.delay(milliseconds: 300)), #"{"delayMs":300}"#)
        XCTAssertEqual(try text(MockFaultAction.closeCode(4001)), #"{"closeCode":4001}"#)
        XCTAssertEqual(try text(MockFaultAction.noReply), #"{"noReply":true}"#)
    }

    func testTheClockTheOutboxAndAnInstanceKeepTheirOrder() throws {
        XCTAssertEqual(try text(MockClock(now: moment, offsetSeconds: 86_400.5)), #"{"now":"2026-11-22T11:14:30Z","offsetSeconds":86400.5}"#)
        XCTAssertEqual(try text(MockSMS(phone: "9123456789", text: "t", code: nil, sentAt: moment)),
                       #"{"phone":"9123456789","text":"t","code":null,"sentAt":"2026-11-22T11:14:30Z"}"#)
        XCTAssertEqual(try text(MockEmail(to: "a@b.c", subject: "s", body: "b", link: "http://x/y", sentAt: moment)),
                       #"{"to":"a@b.c","subject":"s","body":"b","link":"http://x/y","sentAt":"2026-11-22T11:14:30Z"}"#)
        XCTAssertEqual(try text(MockInstance(id: "i1", baseURL: "http://127.0.0.1:8081", port: 8081)),
                       #"{"id":"i1","baseURL":"http://127.0.0.1:8081","port":8081}"#)
    }

    func testArraysNestedValuesAndPrimitivesEncodeAsJSONEncoderWould() throws {
        struct Nested: Encodable { var list: [Int?]; var flag: Bool; var inner: [String: [Double]] }
        XCTAssertEqual(try text(Nested(list: [1, nil, 3], flag: false, inner: ["k": [0.5]])), #"{"list":[1,null,3],"flag":false,"inner":{"k":[0.5]}}"#)
        XCTAssertEqual(try text("plain"), #""plain""#)
        XCTAssertEqual(try text([UInt8(1), 2]), "[1,2]")
    }
}
