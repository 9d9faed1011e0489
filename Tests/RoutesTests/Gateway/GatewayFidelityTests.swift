import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import GatewaySystem

/// API.md revision 2, §2: `sequence_id` echoed whatever its JSON type, over a real WebSocket.
final class GatewayFidelityTests: MockServerTestCase {
    private func exchange(_ text: String) throws -> (raw: String, object: [String: Any]) {
        let socket = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try socket.send(text: text)
        guard case .text(let reply) = try socket.receiveMessage() else {
            XCTFail("replies are text frames")
            return ("", [:])
        }
        return (reply, JSON.parseObject(Array(reply.utf8)) ?? [:])
    }

    private func inEvent(_ object: [String: Any]) -> [String: Any] {
        ((object["data"] as? [String: Any])?["in_event"] as? [String: Any]) ?? [:]
    }

    func testANumberStaysTheSameNumberAndIsItsDecimalTextInsideInEvent() throws {
        let (raw, reply) = try exchange(#"{"type":"LOGIN_CUSTOMER","sequence_id":42,"data":{"email":"fpi@bk.ru","password":"wrong"}}"#)
        XCTAssertTrue(raw.contains(#""sequence_id":42,"#), raw)
        XCTAssertEqual(reply["sequence_id"] as? Int, 42)
        XCTAssertEqual(inEvent(reply)["sequence_id"] as? String, "42")
        let (rawFraction, fraction) = try exchange(#"{"type":"LOGIN_CUSTOMER","sequence_id":1.5,"data":{"email":"fpi@bk.ru","password":"wrong"}}"#)
        XCTAssertTrue(rawFraction.contains(#""sequence_id":1.5,"#), rawFraction)
        XCTAssertEqual(inEvent(fraction)["sequence_id"] as? String, "1.5")
    }

    func testAStringIsKeptVerbatimAndOtherTypesAsSent() throws {
        let upper = try exchange(#"{"type":"LOGIN_CUSTOMER","sequence_id":"A29E4FD0-581D","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        XCTAssertEqual(upper.object["sequence_id"] as? String, "A29E4FD0-581D")
        let bool = try exchange(#"{"type":"LOGIN_CUSTOMER","sequence_id":true,"data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        XCTAssertTrue(bool.raw.contains(#""sequence_id":true,"#), bool.raw)
    }

    func testMissingOrNullGetsAFreshUUID() throws {
        for message in [#"{"type":"LOGIN_CUSTOMER","data":{"email":"fpi@bk.ru","password":"x"}}"#,
                        #"{"type":"LOGIN_CUSTOMER","sequence_id":null,"data":{"email":"fpi@bk.ru","password":"x"}}"#] {
            let (_, reply) = try exchange(message)
            let id = reply["sequence_id"] as? String ?? ""
            XCTAssertNotNil(UUID(uuidString: id), message)
            XCTAssertEqual(inEvent(reply)["sequence_id"] as? String, id, "the same fresh id inside in_event")
        }
    }

    func testTokenControlsOnlyChangeWhatIsIssuedSays() throws {
        let gateway = try XCTUnwrap(server.app.systems.compactMap { $0 as? CustomerGateway }.first)
        let (_, reply) = try exchange(#"{"type":"LOGIN_CUSTOMER","sequence_id":"s","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        let token = try XCTUnwrap((reply["data"] as? [String: Any])?["api_token"] as? String)
        XCTAssertTrue(gateway.isIssued(token))
        XCTAssertEqual(gateway.expireTokens(token), 1)
        XCTAssertFalse(gateway.isIssued(token))
        XCTAssertEqual(gateway.revokeTokens(nil), 0, "the only token was already expired")
    }
}
